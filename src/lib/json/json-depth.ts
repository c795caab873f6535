// Nesting depth of a parsed JSON value, checked without recursion so a hostile body cannot blow the
// stack. The values still to visit and their depths are kept in two parallel stacks: no pair object
// is allocated per object or array of the body.

export function exceedsJsonDepth(value: unknown, maxDepth: number): boolean {
  const values: unknown[] = [value];
  const depths: number[] = [1];
  while (values.length > 0) {
    const v = values.pop();
    const depth = depths.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth > maxDepth) return true;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const child: unknown = v[i];
        if (child !== null && typeof child === 'object') {
          values.push(child);
          depths.push(depth + 1);
        }
      }
    } else {
      for (const k in v as Record<string, unknown>) {
        const child = (v as Record<string, unknown>)[k];
        if (child !== null && typeof child === 'object') {
          values.push(child);
          depths.push(depth + 1);
        }
      }
    }
  }
  return false;
}
