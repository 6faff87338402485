throw new Error('cannot start without REDIS_URL');
