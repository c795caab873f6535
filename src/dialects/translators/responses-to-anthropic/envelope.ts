// The `response` object around the output, as JSON text: the same envelope for the whole answer and
// for every `response.*` lifecycle event of a stream, built once per response. It echoes what the
// request asked for (max_output_tokens, sampling, tool_choice, text, reasoning, metadata) as the
// service does; `instructions` and `tools` are echoed as null and [] (clients send them, none read them
// back, and a coding agent's instructions are kilobytes). Stateless: `store` is always false.
import { quoteJson } from '../../../lib/json/quote.js';

type Json = Readonly<Record<string, unknown>>;

export class ResponseEnvelope {
  private readonly head: string;
  private readonly middle: string;
  private readonly tail: string;

  constructor(
    readonly id: string,
    createdAt: number,
    model: string,
    client: Json | null,
  ) {
    const c = client ?? {};
    this.head = `{"id":${quoteJson(id)},"object":"response","created_at":${createdAt},"status":`;
    this.middle = `,"instructions":null,"max_output_tokens":${echo(c.max_output_tokens, 'null')},"model":${quoteJson(model)},"output":`;
    this.tail =
      `,"parallel_tool_calls":${echo(c.parallel_tool_calls, 'true')},"previous_response_id":null` +
      `,"reasoning":${reasoningEcho(c.reasoning)},"store":false,"temperature":${echo(c.temperature, 'null')}` +
      `,"text":${echo(c.text, '{"format":{"type":"text"}}')},"tool_choice":${echo(c.tool_choice, '"auto"')},"tools":[]` +
      `,"top_p":${echo(c.top_p, 'null')},"truncation":"disabled","user":null,"metadata":${echo(c.metadata, '{}')},"usage":`;
  }

  /** The response with `status`, its error and incomplete details, output items and usage given as JSON text. */
  json(status: string, errorJson: string, incompleteJson: string, outputJson: string, usageJson: string): string {
    return `${this.head}"${status}","background":false,"error":${errorJson},"incomplete_details":${incompleteJson}${this.middle}${outputJson}${this.tail}${usageJson}}`;
  }
}

function echo(v: unknown, absent: string): string {
  return v === undefined || v === null ? absent : JSON.stringify(v);
}

function reasoningEcho(v: unknown): string {
  const r = typeof v === 'object' && v !== null ? (v as Record<string, unknown>) : {};
  return `{"effort":${echo(r.effort, 'null')},"summary":${echo(r.summary, 'null')}}`;
}
