import { OPERATIONS, SCHEME_TITLES } from '../catalog/index.ts';
import { DEFAULT_BASE_URL, ENV } from './args.ts';

const SECRETS = `Secrets:
  The merchant control key is read from --control-key-file FILE or --control-key KEY and, when
  neither is given, from the environment variable ${ENV.controlKey}. Prefer the file or the
  variable: a key given as --control-key is visible to every user of the machine in the process
  list (ps) and lands in the shell history.
  paysign never prints the control key or a private key; signing inputs show the key as
  <merchant_control_key>.`;

export const MAIN_HELP = `paysign: sign and verify requests of the card-payment gateway's server-to-server API.

Usage:
  paysign sign <operation> --endpoint-id N [options] [name=value ...]
  paysign verify [FILE] [options]
  paysign keys generate|inspect|convert ...
  paysign handler-check <url> [options]
  paysign run <collection.json> --env <name> [--junit out.xml] [--json]
  paysign codes [N|NAME ...]
  paysign certificate verify <file>
  paysign <command> --help

Commands:
  sign      Build and sign a request; print the signing input, the signature and the raw HTTP request
            (or only JSON, curl or raw HTTP).
  verify    Check the signature of a captured raw HTTP request; on a mismatch show what was expected.
  keys      Generate, inspect and convert RSA keys for the OAuth RSA-SHA256 (v4) operations.
  handler-check
            Check a merchant's callback handler: 2xx in time, idempotent, refuses a bad control,
            keeps the latest state (JUnit XML with --junit).
  run       Run a collection (the console's export, Postman or Insomnia) step by step, signed afresh,
            waiting for final statuses and checking each step's assertions (JUnit XML with --junit).
  codes     The refusal codes as answers carry them, "1 · VALIDATION": number, name, and whether the
            number is the gateway's (known from its public code) or this sandbox's.
  certificate
            Verify a classroom completion certificate offline (Open Badges 3.0, eddsa-jcs-2022).

Exit codes: 0 success (signature OK), 1 signature mismatch or unusable key, 2 bad input.

${SECRETS}`;

function operationList(): string {
  const width = Math.max(...OPERATIONS.map((o) => o.path.length));
  return OPERATIONS.map((o) => {
    const others = (o.schemeAlternatives ?? []).map((s) => `--scheme ${s}`).join(', ');
    return `  ${o.path.padEnd(width)}  ${SCHEME_TITLES[o.scheme].padEnd(21)}  ${o.title}${others ? ` (also ${others})` : ''}`;
  }).join('\n');
}

export function signHelp(): string {
  return `Usage: paysign sign <operation> (--endpoint-id N | --endpoint-group-id N) [options] [name=value ...]

Builds the request of one operation, signs it and prints the operation, the scheme, every value of
the signing input with its source, the signature and the raw HTTP request.

<operation> is the path after /api/, e.g. v2/sale, v4/payout-check, 3ds/v1/upload-cres-result.
name=value pairs are the body parameters: the operation's fields in the order given, then the
names the catalog does not list (and a name given twice), in their order. A value may contain "="
(the pair is split at the first one) and may be empty (name=). The login given with --login fills
the operation's "login" field unless login=... is given.

Options:
  --endpoint-id N          Endpoint id (the path's last segment and, where signed, the endpointId term).
  --endpoint-group-id N    Endpoint group id instead: .../group/N; it replaces endpointId in the formula.
  --login L                Merchant login (control formulas with login; oauth_consumer_key for OAuth).
  --control-key-file F     File holding the merchant control key (control and HMAC-SHA1 operations).
  --control-key K          The control key itself (visible in the process list; see Secrets).
  --private-key-file F     RSA private key, PEM (PKCS#1 or PKCS#8), for RSA-SHA256 (v4) operations.
  --scheme S               Sign with S where the operation allows several (payout-form: control,
                           oauth-hmac-sha1 or oauth-rsa-sha256; hmac-sha1 and rsa-sha256 work too).
                           Default: the operation's own scheme, listed below.
  --base-url URL           Gateway base URL (default $${ENV.baseUrl}, else ${DEFAULT_BASE_URL},
                           the local sandbox). The request goes to URL/api/<operation>/N.
  --nonce X                OAuth nonce to use instead of a fresh random one (to reproduce a request).
  --timestamp T            OAuth timestamp (seconds since 1970) to use instead of the current time.
  --json                   Print one JSON object: url, headers, body, the signature fields and the
                           masked signing input.
  --curl                   Print only a curl command that sends the request.
  --raw                    Print only the raw HTTP request.
  -h, --help               This help.

${SECRETS}

Examples:
  paysign sign v2/sale --endpoint-id 1111 --control-key-file key.txt \\
    client_orderid=902B4FF5 amount=10.42 email=john.smith@gmail.com
  paysign sign v2/payout --endpoint-id 1111 --login demo --control-key-file key.txt \\
    client_orderid=p-1 amount=5.00 currency=USD --curl
  paysign sign v4/payout-check --endpoint-id 1111 --login demo --private-key-file private.pem \\
    client_orderid=p-2 amount=5.00 currency=USD --raw > request.http
  paysign sign v2/payout-form --endpoint-id 1111 --login demo --scheme rsa-sha256 \\
    --private-key-file private.pem client_orderid=p-3 amount=5.00 currency=USD

Operations:
${operationList()}`;
}

export const VERIFY_HELP = `Usage: paysign verify [FILE] [options]

Runs the signature debugger on a captured request, read from FILE or, without FILE (or with -),
from stdin. The capture may be raw HTTP, a curl command, a HAR file or entry, or a log line of
key=value pairs; paysign tells them apart by their shape. The operation and endpoint come from the
request path (anything may precede /api/, e.g. /paynet/api/v2/sale/1111).

Prints "signature OK", "signature MISMATCH", "signature OK, but the request would be refused" (a
stale timestamp, the wrong signature method) or "signature NOT CHECKED" (no key given); then the
likely causes from the catalogue of known mistakes (each confirmed when re-signing the capture's own
values that way reproduces its signature), the first difference, the structural checks that need no
secret, and on a mismatch what was expected: the term-by-term control input (key masked) or the
OAuth base string.

The OAuth base string contains the URL. A raw HTTP request line without scheme does not say http or
https: without --scheme or --base-url, paysign tries https:// and then http:// and says which matched.

Options:
  --login L                Merchant login (default: the body's login field; for OAuth the header's
                           oauth_consumer_key).
  --control-key-file F     File holding the merchant control key (control and HMAC-SHA1 operations).
  --control-key K          The control key itself (visible in the process list; see Secrets).
  --public-key-file F      The merchant's RSA public key, PEM (a private key or certificate works too),
                           for RSA-SHA256 (v4) operations.
  --private-key-file F     The private key the merchant signs with: inspected for PKCS#1/PKCS#8
                           confusion and checked against the public key (never printed).
  --scheme http|https      The URL scheme the request was signed with.
  --base-url URL           The base URL the request was signed with: the signed URL is URL followed by
                           the /api/... part of the captured path.
  --format F               Read the capture as raw-http, curl, har, log-line, app-log (Monolog,
                           Laravel, Symfony, logback), json-log (pino…), python-debug (send: b'…')
                           or access-log (a callback's GET) instead of judging by its content.
  --other-order-id ID      The client_orderid of another order of the merchant's (repeatable): tried
                           in place of the one sent (a signature built from the wrong order).
  --expected-base-string F A file with the gateway's own expected base string (OAuth) or
                           concatenation (control; "<merchant_control_key>" at its end is ignored):
                           shown against ours, difference marked.
  --now EPOCH_SECONDS      The time to judge oauth_timestamp against (a capture more than 600 s away
                           is stale). Without it the timestamp is not judged.
  --json                   Print one JSON object with the verdict, the causes and the expected input.
  -h, --help               This help.

Exit codes: 0 signature OK, 1 signature MISMATCH or a request the gateway would refuse, 2 bad input
(unparseable request, unknown operation, unusable key) or no key to check the signature with (the
report is printed all the same).

${SECRETS}

Examples:
  paysign sign v2/payout --endpoint-id 1111 --login demo --control-key-file key.txt amount=1.00 --raw \\
    | paysign verify --control-key-file key.txt
  paysign verify capture.har --public-key-file public.pem --now 1767225600
  pbpaste | paysign verify --control-key-file key.txt --expected-base-string gateway-said.txt`;

export const KEYS_HELP = `Usage:
  paysign keys generate [--bits 2048|3072|4096] [--out-dir DIR] [--force]
  paysign keys inspect FILE|- [--json]
  paysign keys convert FILE|- --to pkcs8|pkcs1|spki|pkcs1-public [--out FILE] [--force]

RSA keys for the OAuth RSA-SHA256 (v4) operations. The gateway needs RSA of at least 2048 bits in
PEM; send it the public key (SPKI, public.pem) and keep the private key secret.
Run "paysign keys <subcommand> --help" for details.`;

export const KEYS_GENERATE_HELP = `Usage: paysign keys generate [--bits 2048|3072|4096] [--out-dir DIR] [--force]

Generates an RSA key pair (default 4096 bits, as the gateway's own key tool) and prints its
fingerprint (SHA-256 of the public key's SPKI DER, as "openssl pkey -pubout -outform DER | sha256sum").

Options:
  --bits N        2048, 3072 or 4096 (default 4096).
  --out-dir DIR   Write DIR/private-pkcs8.pem and DIR/private-pkcs1.pem (mode 0600) and DIR/public.pem
                  (the SPKI public key to send to the gateway). Without it the three PEMs are printed.
  --force         Overwrite existing files in DIR.
  -h, --help      This help.`;

export const KEYS_INSPECT_HELP = `Usage: paysign keys inspect FILE|- [--json]

Describes a PEM key: its kind, size in bits, fingerprint, warnings and, when it cannot be used to
sign or verify, why. Reads stdin when FILE is -.
Exit codes: 0 usable, 1 a key that cannot be used (too short, encrypted, not RSA), 2 not a key.

Options:
  --json          Print one JSON object.
  -h, --help      This help.`;

export const KEYS_CONVERT_HELP = `Usage: paysign keys convert FILE|- --to pkcs8|pkcs1|spki|pkcs1-public [--out FILE] [--force]

Converts a PEM key between containers:
  pkcs8          private key, BEGIN PRIVATE KEY (what signing libraries and Web Crypto take)
  pkcs1          private key, BEGIN RSA PRIVATE KEY (what the gateway's in-page builders take)
  spki           public key, BEGIN PUBLIC KEY (what the gateway is sent)
  pkcs1-public   public key, BEGIN RSA PUBLIC KEY
The public forms can be made from a private key, a public key or a certificate.

Options:
  --to FORM       The container to write (required).
  --out FILE      Write to FILE (private keys with mode 0600) instead of stdout.
  --force         Overwrite FILE if it exists.
  -h, --help      This help.`;

export const HANDLER_CHECK_HELP = `Usage: paysign handler-check <url> [options]

Sends the merchant's callback handler the callbacks a real gateway sends on a bad day, each signed
with control = sha1(status + orderid + merchant_order + key), and checks that the handler:
  answers-in-time       answers a genuine callback with 2xx within the timeout
  idempotent-duplicate  answers the same callback twice with 2xx (and keeps the state)
  refuses-bad-control   refuses a callback with a wrong control (non-2xx, state unchanged)
  no-state-rollback     keeps "approved" when a stale "processing" callback follows (needs --state-url)
Each check quotes the rule of the API description it follows. The orders are made up: the handler
must answer 2xx to a genuine callback for an order it does not know.

Options:
  --control-key-file FILE, --control-key KEY   the merchant control key (or ${ENV.controlKey})
  --timeout-ms N        the gateway's patience with one callback (default 5000)
  --state-url URL       the handler's view of an order, with {orderid}: answers {"status": "..."} or the status
  --junit FILE          also write the results as JUnit XML (for CI)
  --json                print the report as JSON

Exit codes: 0 every check passed (or was skipped), 1 a check failed, 2 bad input.`;

export const RUN_HELP = `Usage: paysign run <collection.json> --env <name> [options]

Runs a collection in order: each step's {{variables}} resolved (values saved from earlier answers,
then the environment, then the collection's defaults), signed with a fresh nonce and timestamp,
sent, its final status awaited on the polling policy, its assertions checked. The file is a
collections file exported by the console, a Postman collection (v2.1) or an Insomnia export.

Environments:
  --env local           The local sandbox, started in this process on a loopback port with its demo
                        merchant; its variables include a test card ({{card_number}}, {{cvv}},
                        {{expire_month}}, {{expire_year}}).
  --env NAME --env-file FILE
                        An environment of FILE: {"environments": [{"name", "kind": "vendor-sandbox" |
                        "production" | "custom", "baseUrl", "login", "endpointId" | "groupId",
                        "variables": {...}}]}. Never a secret in it.

Options:
  --collection NAME     The collection of a console file to run (the first by default).
  --only LIST           Run these steps only, e.g. --only 1,3-4.
  --var name=value      A variable for this run (not a secret: those never go on the command line).
  --secret-file control_key=FILE | private_key=FILE
                        Read the merchant control key or the RSA private key (PEM) from FILE.
  --junit FILE          Write the run as JUnit XML (one testcase per step).
  --json                Print the run as JSON instead of text.
  --confirm-production  Needed to run against an environment of kind "production".

Secrets: the control key from --secret-file or $PAYSIGN_CONTROL_KEY, the private key from
--secret-file or the file named by $PAYSIGN_PRIVATE_KEY_FILE. They are never printed nor written.

Exit codes: 0 every step passed, 1 an assertion failed or a step could not be sent, 2 bad input.`;

export const CAPSULE_HELP = `Usage: paysign capsule build <files…> [--control-key-file F] [--public-key-file F] [--login L] [-o FILE] [--json]
       paysign capsule verify <capsule> [--replay --sandbox ORIGIN] [--json]
       paysign capsule replay <capsule> --sandbox ORIGIN [--json]

build   Reads an incident as the merchant sent it (log lines of any kind, HAR files, curl commands,
        access-log lines of callbacks, customer returns; in any order, with or without times),
        groups it by order (client_orderid / orderid) into a timeline, diagnoses every signed
        request and checks every callback's and return's control with the keys given (used, never
        written), and checks the state rules: a capture sent while the order was processing, a
        return larger than what is left, a client_orderid reused for another order, status polled
        faster than every few seconds, a callback answered non-200 and retried. Prints the capsule
        (JSON) or, with -o FILE, writes it there and prints the timeline. The capsule holds no key,
        card numbers masked to 6+4, CVVs dropped, and each step is hash-chained to the one before.
verify  Checks a capsule's chain and that its findings follow from its steps: exit 0 when intact,
        1 when a step, an order or a finding was changed. With --replay, replays it as well.
replay  Checks the chain, then replays every request of the capsule, in order and with its gaps
        compressed, into a fresh merchant of the sandbox at ORIGIN (POST /sandbox/merchants, which
        answers on this machine only; e.g. http://127.0.0.1:4174 for npm run sandbox), re-signed
        with that merchant's keys: the incident's key is never needed. Prints, step by step, where
        the sandbox's answer (type, status, error-code, transaction-type, HTTP status) differs from
        the one the logs recorded. Exit 1 when any step differs or the chain is broken.

${SECRETS}`;
