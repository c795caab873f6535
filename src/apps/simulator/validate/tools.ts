// `tools` and `tool_choice`: definitions, names, and the choice shapes the provider accepts.
import { checkCacheControl } from './content.js';
import { at, bool, fail, isIdentifier, list, literal, noExtra, obj, requireField, str, tag, type Json } from './check.js';

const CUSTOM_TOOL_KEYS = new Set([
  'type',
  'name',
  'description',
  'input_schema',
  'cache_control',
  'strict',
  'input_examples',
  'defer_loading',
  'allowed_callers',
  'eager_input_streaming',
]);
const NAME_PATTERN = "'^[a-zA-Z0-9_-]{1,128}$'";
const CHOICE_TAGS = ['auto', 'any', 'tool', 'none'] as const;
const CHOICE_KEYS: Record<(typeof CHOICE_TAGS)[number], ReadonlySet<string>> = {
  auto: new Set(['type', 'disable_parallel_tool_use']),
  any: new Set(['type', 'disable_parallel_tool_use']),
  tool: new Set(['type', 'name', 'disable_parallel_tool_use']),
  none: new Set(['type']),
};

/** Server tools carry a dated type such as web_search_20250305. */
function isServerToolType(t: string): boolean {
  const n = t.length;
  if (n < 10 || t.charCodeAt(n - 9) !== 95) return false;
  for (let i = n - 8; i < n; i++) {
    const c = t.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

function checkCustomTool(t: Json, loc: string): string {
  const l = at(loc, 'custom');
  noExtra(t, CUSTOM_TOOL_KEYS, l);
  const name = str(requireField(t, 'name', l), at(l, 'name'));
  if (!isIdentifier(name, 128)) fail(at(l, 'name'), `String should match pattern ${NAME_PATTERN}`);
  if (t.description !== undefined) str(t.description, at(l, 'description'));
  const schema = obj(requireField(t, 'input_schema', l), at(l, 'input_schema'));
  literal(requireField(schema, 'type', at(l, 'input_schema')), at(at(l, 'input_schema'), 'type'), ['object']);
  if (t.strict !== undefined) bool(t.strict, at(l, 'strict'));
  checkCacheControl(t.cache_control, at(l, 'cache_control'));
  return name;
}

/** Returns the tool names, in order. */
export function checkTools(v: unknown): string[] {
  const tools = list(v, 'tools');
  const names: string[] = [];
  for (let i = 0; i < tools.length; i++) {
    const loc = at('tools', i);
    const t = obj(tools[i], loc);
    const type = t.type;
    if (type === undefined || type === null || type === 'custom') {
      names.push(checkCustomTool(t, loc));
    } else if (typeof type === 'string' && isServerToolType(type)) {
      names.push(str(requireField(t, 'name', at(loc, type)), at(at(loc, type), 'name')));
    } else {
      tag(t, loc, ['custom']);
    }
  }
  if (new Set(names).size !== names.length) fail('tools', 'Tool names must be unique.');
  return names;
}

export function checkToolChoice(v: unknown, toolNames: readonly string[]): Json {
  const choice = obj(v, 'tool_choice');
  const kind = tag(choice, 'tool_choice', CHOICE_TAGS);
  const loc = at('tool_choice', kind);
  noExtra(choice, CHOICE_KEYS[kind], loc);
  if (choice.disable_parallel_tool_use !== undefined) bool(choice.disable_parallel_tool_use, at(loc, 'disable_parallel_tool_use'));
  if ((kind === 'any' || kind === 'tool') && toolNames.length === 0) {
    fail('tool_choice', 'tool_choice may only be specified while providing tools');
  }
  if (kind === 'tool') {
    const name = str(requireField(choice, 'name', loc), at(loc, 'name'));
    if (!toolNames.includes(name)) fail(at(loc, 'name'), `Tool '${name}' not found in provided tools`);
  }
  return choice;
}
