import t from 'tap';
import { loadConfig } from '../../../src/config/config.js';
import { ConfigError } from '../../../src/config/config-error.js';

const dataDir = (env: Record<string, string>) => loadConfig(env).dataDir;

t.test('the data folder is the database file’s folder, read with the database URL parser', async (t) => {
  t.equal(dataDir({}), './data', 'the default file:./data/gateway.db');
  t.equal(dataDir({ DATABASE_URL: 'file:/var/lib/gw/gateway.db' }), '/var/lib/gw');
  t.equal(dataDir({ DATABASE_URL: 'file:///var/lib/gw/gateway.db' }), '/var/lib/gw', 'a file:// URL is a path, not text to cut');
  t.equal(dataDir({ DATABASE_URL: 'file:gateway.db' }), '.');
});

t.test('no database file: ./data; GATEWAY_DATA_DIR wins over all', async (t) => {
  t.equal(dataDir({ DATABASE_URL: 'file::memory:' }), './data');
  t.equal(dataDir({ DATABASE_URL: 'postgres://u:p@db/gw' }), './data');
  t.equal(dataDir({ DATABASE_URL: 'file:/var/lib/gw.db', GATEWAY_DATA_DIR: '/srv/gw' }), '/srv/gw');
});

t.test('a DATABASE_URL the store could not open is refused with the store’s own reason', async (t) => {
  t.throws(() => loadConfig({ DATABASE_URL: 'mysql://db/gw' }), ConfigError);
});
