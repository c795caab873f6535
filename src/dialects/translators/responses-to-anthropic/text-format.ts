// `text.format` → structured output (docs/wire.md, "Responses surface"): a `json_schema` format
// becomes the provider's `output_config.format` where the model takes it; elsewhere, and for
// `json_object` (no schema to hold the model to), the field is left out with a warning.
import type { OutputConfig } from '../../anthropic/wire.js';
import type { ModelTraits } from '../../model-traits.js';
import { expectRecord, fail, isAbsent, type Warnings } from '../openai-shared/invalid.js';

// The provider's structured outputs came with Claude Sonnet 4.5 and Opus 4.1: the Claude 3 family and
// the first Claude 4 releases (dated 2025-05) do not take them.
const NO_STRUCTURED_OUTPUT = /^claude-(3|(opus|sonnet)-4-(0|2025))/;

export function takesStructuredOutput(model: ModelTraits): boolean {
  return !NO_STRUCTURED_OUTPUT.test(model.id);
}

export function mapTextFormat(raw: unknown, model: ModelTraits, warnings: Warnings): OutputConfig['format'] | undefined {
  if (isAbsent(raw)) return undefined;
  const text = expectRecord(raw, 'text');
  if (!isAbsent(text.verbosity) && text.verbosity !== 'medium') warnings.add('field_ignored', 'text.verbosity');
  if (isAbsent(text.format)) return undefined;
  const format = expectRecord(text.format, 'text.format');
  switch (format.type) {
    case 'text':
      return undefined;
    case 'json_object':
      warnings.add('field_ignored', 'text.format');
      return undefined;
    case 'json_schema': {
      const schema = expectRecord(format.schema, 'text.format.schema');
      if (!takesStructuredOutput(model)) {
        warnings.add('field_ignored', 'text.format');
        return undefined;
      }
      return { type: 'json_schema', schema };
    }
    default:
      return fail('text.format.type', 'text.format.type must be "text", "json_object" or "json_schema"');
  }
}
