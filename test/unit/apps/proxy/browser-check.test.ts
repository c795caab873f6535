import t from 'tap';
import { declaresJsonBody, sentByBrowser } from '../../../../src/apps/proxy/browser-check.js';

t.test('a request marked by a browser is recognised', async (t) => {
  const cases: Array<[Record<string, string>, boolean]> = [
    [{}, false],
    [{ 'user-agent': 'Anthropic/JS 0.60.0', 'x-stainless-lang': 'js' }, false],
    [{ 'sec-fetch-site': 'none', 'sec-fetch-mode': 'navigate' }, false],
    [{ origin: 'https://evil.example' }, true],
    [{ origin: 'null' }, true],
    [{ origin: '' }, true],
    [{ 'sec-fetch-site': 'cross-site' }, true],
    [{ 'sec-fetch-site': 'same-site' }, true],
    [{ 'sec-fetch-site': 'same-origin' }, true],
    [{ 'sec-fetch-site': 'none, cross-site' }, true],
    [{ 'sec-fetch-site': 'none', origin: 'https://evil.example' }, true],
  ];
  for (const [headers, browser] of cases) t.equal(sentByBrowser(headers), browser, JSON.stringify(headers));
});

t.test('only a body labelled JSON passes', async (t) => {
  const cases: Array<[string | undefined, boolean]> = [
    ['application/json', true],
    ['Application/JSON; charset=utf-8', true],
    ['application/vnd.api+json', true],
    [undefined, false],
    ['', false],
    ['text/plain;charset=UTF-8', false],
    ['application/x-www-form-urlencoded', false],
    ['multipart/form-data; boundary=x', false],
    ['text/plain; x=application/json', false],
  ];
  for (const [type, ok] of cases) t.equal(declaresJsonBody(type === undefined ? {} : { 'content-type': type }), ok, String(type));
});
