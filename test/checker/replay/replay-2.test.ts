/** A run's live verdict = its recorded history's replay, casebook part 2 of 4 (see replay.ts). */
import { replayPart } from './replay.js';

replayPart(2);
