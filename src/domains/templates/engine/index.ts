export {
  deriveTemplate,
  type Derived,
  type LearnInput,
  maskedExample,
  renderTokens,
} from "./derive";
export { mergePatterns } from "./merge";
export { readWithPattern } from "./match";
export { hostMatches, nameFromHost, senderHost, subjectWords } from "./text";
export type { Extracted, TemplatePattern } from "./types";
export {
  CONFIRM_FIRST,
  explainMiss,
  learnedAudit,
  learnedFields,
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
  DRIFT_KEY_PREFIX,
  driftRead,
  driftReasonsFrom,
  driftStep,
  driftWrite,
  parsedNote,
} from "./drift";
export { suggestValues } from "./suggest";
