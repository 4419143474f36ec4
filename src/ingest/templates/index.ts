export { deriveTemplate, type Derived, type DeriveResult, type LearnInput, renderTokens } from "./derive";
export { readWithPattern, type MatchResult } from "./match";
export { hostMatches, nameFromHost, senderHost, subjectWords } from "./text";
export type { Extracted, TemplatePattern } from "./types";
export {
  CONFIRM_FIRST,
  learnedAudit,
  learnedFields,
  type LearnedReading,
  readingLocal,
  readLearned,
} from "./apply";
export { noteRead, patternOf, saveTemplate, templateId, wordsOf } from "./store";
export {
  DRIFT_AFTER,
  DRIFT_KEY_PREFIX,
  driftReasons,
  driftReasonsFrom,
  noteParsed,
  noteQuarantined,
} from "./drift";
