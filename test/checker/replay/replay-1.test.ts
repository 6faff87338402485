/** A run's live verdict = its recorded history's replay, casebook part 1 of 4 (see replay.ts). */
import { replayPart } from './replay.js';

replayPart(1);
