// What a translation changed about the client's request or the provider's answer.
// The gateway lists these in `x-gateway-translation-warnings` and counts them in a metric,
// so the kind is a small closed set (a metrics label must not grow without bound).

export type WarningKind =
  | 'field_ignored'
  | 'temperature_clamped'
  | 'sampling_field_dropped'
  | 'max_tokens_defaulted'
  | 'max_tokens_capped'
  | 'n_reduced'
  | 'stop_sequence_dropped'
  | 'tool_id_rewritten'
  | 'message_dropped'
  | 'finish_reason_unknown'
  | 'tool_dropped';

export interface TranslationWarning {
  kind: WarningKind;
  /**
   * The field concerned, as a request path (`temperature`, `messages[2].name`): never empty, header-safe
   * ASCII without `,` or `:`, so the header lists it as it is. A detail taken from the client's JSON
   * goes through safeDetail; the gateway's own paths are safe as written.
   */
  detail: string;
}

/** A translation that changed nothing: shared, never written to. */
export const NO_WARNINGS: readonly TranslationWarning[] = Object.freeze([]);

const UNSAFE_DETAIL = /[^A-Za-z0-9_.\[\]\-]/g;
const MAX_DETAIL = 80;

/** Client-chosen field names end up in a response header: keep them short and plain. */
export function safeDetail(field: string): string {
  if (field.length === 0) return '?';
  const clean = field.replace(UNSAFE_DETAIL, '?');
  return clean.length > MAX_DETAIL ? clean.slice(0, MAX_DETAIL) + '...' : clean;
}
