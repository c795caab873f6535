// `model-gateway --help`: the only place the whole usage text is printed. Every other failure is one
// line on stderr that points here.

export const HELP_HINT = 'see model-gateway --help';

export const USAGE_TEXT = `usage: model-gateway <command> [options]

commands:
  serve [--port N] [--host <address>] [--workers N|auto]
        start the gateway (the default command)
  keys create --customer <name> [--name <label>] [--expires <ISO-8601>] [--models <id,id>] [--rpm N] [--tpm N]
              [--budget USD] [--budget-period day|month|total] [--budget-mode hard|soft] [--json]
        create a key (and the customer if new); prints the full key, once; --budget: a spend budget on the key
        (period default month, UTC; mode default hard: refuse with 429, soft: allow and flag)
  keys list [--customer <name>] [--json]
        list keys; never the full key
  keys update <id> [--name <label>] [--expires <ISO-8601>|none] [--models <id,id>|all] [--rpm N|none] [--tpm N|none]
              [--budget USD|none] [--budget-period day|month|total] [--budget-mode hard|soft] [--json]
        change a key: only the flags given change, none removes a setting; --json prints the key (never the
        secret); running gateways apply a change within GATEWAY_KEY_REFRESH_MS
  keys revoke <id>
        revoke a key (the id or the prefix shown by keys list)
  customers list [--json]
        list customers with their own rate limits and budget
  customers limits <name> [--rpm N|none] [--tpm N|none] [--json]
        show or set a customer's limits for all its keys together; none removes one, a flag not given is kept;
        with neither set, GATEWAY_CUSTOMER_LIMITS applies; running gateways take a change within seconds
  customers budget <name> [--amount USD|none] [--period day|month|total] [--mode hard|soft] [--json]
        show or set a customer's spend budget for all its keys together (a new one: period default month, UTC;
        mode default hard); only the flags given change; none removes it; running gateways take a change within seconds
  usage [--customer <name>] [--key <id>] [--model <id>] [--since YYYY-MM-DD] [--until YYYY-MM-DD] [--json | --format csv]
        requests, tokens, errors and cost (USD) per day, customer, model and provider; csv: the invoicing export
  audit [--since YYYY-MM-DD|<ISO time>] [--customer <name>] [--json]
        the admin trail, newest first: when, who (operator, a user's e-mail, cli@<host>), from which address,
        what, and what changed (never a secret); kept GATEWAY_AUDIT_RETENTION_DAYS days
  migrate
        apply the database's pending migrations (every start does too; run it first to change a fleet's schema once)
  proxy --gateway <url> [--port 3099] [--host 127.0.0.1] [--key-file <path>]
        the local proxy for your tools; the key comes from MODEL_GATEWAY_KEY or --key-file
  simulator [--port 9099] [--host 127.0.0.1] [--ttft-ms N] [--tokens-per-second N] [--reply-tokens N]
            [--accounts-file <json>] [--vertex-credentials-out <path>]
        the built-in provider simulator: the provider's API, Bedrock's and Vertex AI's; the accounts file
        gives accounts, keys and rate limits; the credentials file is a service account for its Vertex AI

  model-gateway --help, or model-gateway <command> --help: this text
settings come from the environment (DATABASE_URL, PORT, ANTHROPIC_API_KEY, ...): see README.md`;

export function isHelpFlag(arg: string | undefined): boolean {
  return arg === '--help' || arg === '-h' || arg === 'help';
}
