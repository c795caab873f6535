// Compares in place: short words and long heads agree with String#startsWith, at the text's edges too.
import t from 'tap';
import { textAt } from '../../../src/lib/text-at.js';

const text = 'event: content_block_delta\ndata: {"type":"content_block_delta","index":0}';

t.test('textAt agrees with startsWith, short and long, inside and past the end', async (t) => {
  const cases: Array<[number, string]> = [
    [0, 'event: '],
    [0, 'event:x'],
    [7, 'content_block_delta'],
    [7, 'content_block_deltb'],
    [27, 'data: '],
    [33, '{"type":"content_block_delta","index":'],
    [33, '{"type":"content_block_delta","index":0}extra'],
    [text.length - 2, '0}'],
    [text.length - 1, '}}'],
    [text.length, ''],
  ];
  for (const [at, expected] of cases) t.equal(textAt(text, at, expected), text.startsWith(expected, at), `${at}: ${expected}`);
});
