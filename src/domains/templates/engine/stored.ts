/** The stored JSON of a learned template (alert_templates.pattern, .subject_words), read with its shape. */
import { z } from "zod";
import { storedJson } from "../../../db/json";
import { templatePattern } from "./types";

/** The template's pattern; an unreadable one reads nothing (null: the template is skipped, logged). */
export const readTemplatePattern = storedJson("alert_templates.pattern", templatePattern.nullable(), {
  value: () => null,
});
/** The subject's fixed words; unreadable → none (logged). */
export const readSubjectWords = storedJson("alert_templates.subject_words", z.array(z.string()), {
  value: () => [],
});
