// Polls a condition: for effects that are eventually consistent by design (cache refresh, batching).
export async function waitFor(check: () => Promise<boolean> | boolean, ms: number, stepMs = 50): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, stepMs));
  }
  throw new Error(`condition not met within ${ms} ms`);
}
