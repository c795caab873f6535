// Compares in place: short words (a character at a time) and long heads (a cut compared whole) agree
// with String#startsWith, at the text's edges too.
import t from 'tap';
import { startsAt, textAt, textIs } from '../../../src/lib/text-at.js';

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

t.test('startsAt and textIs keep to the range given', async (t) => {
  t.ok(startsAt(text, 0, 26, 'event: '));
  t.notOk(startsAt(text, 0, 5, 'event: '), 'the range ends before the word does');
  t.ok(textIs(text, 7, 26, 'content_block_delta'));
  t.notOk(textIs(text, 7, 25, 'content_block_delt'.concat('a')), 'a range one shorter is not the word');
  t.notOk(textIs(text, 0, 5, 'event'.concat('s')));
});
