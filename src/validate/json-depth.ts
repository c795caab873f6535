// Nesting depth of a parsed JSON value, checked without recursion so a hostile body cannot blow the stack.

export function exceedsJsonDepth(value: unknown, maxDepth: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop() as [unknown, number];
    if (v === null || typeof v !== 'object') continue;
    if (depth > maxDepth) return true;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) if (v[i] !== null && typeof v[i] === 'object') stack.push([v[i], depth + 1]);
    } else {
      for (const k in v as Record<string, unknown>) {
        const child = (v as Record<string, unknown>)[k];
        if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
      }
    }
  }
  return false;
}
