import t from 'tap';
import { GatewayHostHider, HIDDEN_HOST } from '../../../../src/apps/proxy/host-hider.js';

t.test('the gateway host is hidden, with and without its port, in any case', async (t) => {
  const cases: [string, string, string][] = [
    ['https://gw.example.com', 'see https://gw.example.com/x', `see https://${HIDDEN_HOST}/x`],
    ['https://gw.example.com', 'GW.EXAMPLE.COM said no', `${HIDDEN_HOST} said no`],
    ['https://gw.example.com:8443/base', 'at gw.example.com:8443 and gw.example.com', `at ${HIDDEN_HOST} and ${HIDDEN_HOST}`],
    ['http://10.1.2.3:8080', 'upstream 10.1.2.3:8080 failed; 10.1.2.3 down', `upstream ${HIDDEN_HOST} failed; ${HIDDEN_HOST} down`],
    ['http://127.0.0.1:8080', 'from 127.0.0.1:8080 to 127.0.0.1:3099', `from ${HIDDEN_HOST} to 127.0.0.1:3099`],
    ['http://localhost:8080', 'localhost:8080 and localhost', `${HIDDEN_HOST} and localhost`],
    ['http://[::1]:8080', 'at [::1]:8080', `at ${HIDDEN_HOST}`],
    ['https://gw.example.com', 'nothing to hide', 'nothing to hide'],
    ['https://gw.example.com', 'gwXexampleYcom is not a match', 'gwXexampleYcom is not a match'],
  ];
  for (const [gateway, text, hidden] of cases) {
    const hider = new GatewayHostHider(new URL(gateway));
    t.equal(hider.hide(text), hidden, `${gateway}: ${text}`);
    t.equal(hider.mentions(text), hidden !== text, `mentions: ${text}`);
  }
});
