// Where a Vertex AI call goes: the regional or global endpoint, and the publisher model's predict path.
import t from 'tap';
import { vertexCountTokensPath, vertexEndpoint, vertexPredictPath } from '../../../../src/providers/vertex/predict-path.js';

t.test('regional endpoints, and the global one', async (t) => {
  t.equal(vertexEndpoint('europe-west1'), 'https://europe-west1-aiplatform.googleapis.com');
  t.equal(vertexEndpoint('us-east5'), 'https://us-east5-aiplatform.googleapis.com');
  t.equal(vertexEndpoint('global'), 'https://aiplatform.googleapis.com');
});

t.test('rawPredict, streamRawPredict, count-tokens', async (t) => {
  t.equal(vertexPredictPath('my-project', 'europe-west1', 'claude-sonnet-4-6@20260217', false), '/v1/projects/my-project/locations/europe-west1/publishers/anthropic/models/claude-sonnet-4-6@20260217:rawPredict');
  t.equal(vertexPredictPath('my-project', 'global', 'claude-sonnet-4-6', true), '/v1/projects/my-project/locations/global/publishers/anthropic/models/claude-sonnet-4-6:streamRawPredict');
  t.equal(vertexCountTokensPath('p', 'us-east5'), '/v1/projects/p/locations/us-east5/publishers/anthropic/models/count-tokens:rawPredict');
  t.equal(vertexPredictPath('a/b', 'r', 'm:x', false), '/v1/projects/a%2Fb/locations/r/publishers/anthropic/models/m%3Ax:rawPredict', 'segments are encoded');
});
