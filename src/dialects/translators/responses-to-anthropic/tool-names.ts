// The provider's tool names mapped back to what the Responses client defined: a `custom` tool's call
// is a `custom_tool_call` (its one `input` string), a namespaced function's call names its function
// and namespace, everything else is a plain `function_call`. Built from the client's own `tools`,
// which the request translation already checked, so it reads them leniently.
import { isRecord } from '../../../lib/is-record.js';

/** Between a namespace and its function in the name the provider sees. */
export const NAMESPACE_SEPARATOR = '__';
/** The one member of a custom tool's input. */
export const CUSTOM_INPUT = 'input';

export type ToolCallKind =
  | { kind: 'function'; name: string; namespace?: string }
  | { kind: 'custom'; name: string };

export interface ToolNames {
  of(providerName: string): ToolCallKind;
}

/** Requests without custom or namespace tools (most) share this one: every name is a function's. */
const PLAIN: ToolNames = { of: (name) => ({ kind: 'function', name }) };

export function toolNamesOf(tools: unknown): ToolNames {
  if (!Array.isArray(tools)) return PLAIN;
  let special: Map<string, ToolCallKind> | null = null;
  for (const t of tools) {
    if (!isRecord(t) || typeof t.name !== 'string') continue;
    if (t.type === 'custom') (special ??= new Map()).set(t.name, { kind: 'custom', name: t.name });
    else if (t.type === 'namespace' && Array.isArray(t.tools)) {
      for (const inner of t.tools) {
        if (!isRecord(inner) || typeof inner.name !== 'string') continue;
        (special ??= new Map()).set(t.name + NAMESPACE_SEPARATOR + inner.name, { kind: 'function', name: inner.name, namespace: t.name });
      }
    }
  }
  if (special === null) return PLAIN;
  const table = special;
  return { of: (name) => table.get(name) ?? { kind: 'function', name } };
}
