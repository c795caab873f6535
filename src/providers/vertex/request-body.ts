// A Messages body restated for Vertex AI's rawPredict: the model goes in the URL, so `model` leaves
// the body, and the API version Vertex wants (or the route's own) goes in, replacing one a client may
// have written (the Messages API takes its version as a header). `stream` stays (it
// chooses the answer's form there too), `anthropic-beta` stays a header; everything else is kept byte
// for byte as the client wrote it (lib/json/edit-members.ts).
import { editMembers } from '../../lib/json/edit-members.js';

/** The `anthropic_version` Vertex AI's Messages API takes. */
export const VERTEX_ANTHROPIC_VERSION = 'vertex-2023-10-16';

export function toVertexBody(body: Buffer, version: string = VERTEX_ANTHROPIC_VERSION): Buffer {
  return editMembers(body, { remove: ['model'], set: [['anthropic_version', version]] });
}
