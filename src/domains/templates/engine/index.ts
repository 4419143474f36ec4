export {
  deriveTemplate,
  type Derived,
  type DeriveResult,
  type LearnInput,
  maskedExample,
  renderTokens,
} from "./derive";
export { mergePatterns } from "./merge";
export { readWithPattern, type MatchResult } from "./match";
export { hostMatches, nameFromHost, senderHost, subjectWords } from "./text";
export type { Extracted, TemplatePattern } from "./types";
export {
  CONFIRM_FIRST,
  explainMiss,
  learnedAudit,
  learnedFields,
  type LearnedReading,
  readingLocal,
  readLearned,
} from "./apply";
export {
  noteRead,
  patternOf,
  saveTemplate,
  templateId,
  templatesForHost,
  templatesForHostQuery,
  patternUpdate,
  wordsOf,
} from "./store";
export {
  DRIFT_AFTER,
  DRIFT_KEY_PREFIX,
  driftRead,
  driftReasons,
  driftReasonsFrom,
  driftStep,
  driftWrite,
  noteParsed,
  parsedNote,
  noteQuarantined,
} from "./drift";
export { type Suggestion, suggestValues } from "./suggest";
