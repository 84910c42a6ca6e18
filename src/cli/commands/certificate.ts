import { verifyProof } from '../../node/credential-proof.ts';
import { CliError, readTextFile } from '../args.ts';
import type { Io } from '../output.ts';

export const CERTIFICATE_HELP = `Usage: paysign certificate verify <file>

Verifies a classroom completion certificate offline: an Open Badges 3.0 credential signed by the
classroom's Ed25519 key (a Data Integrity proof, cryptosuite eddsa-jcs-2022; the issuer is a
did:key, so nothing is fetched). Prints the trainee, the issuer and each exercise passed.
Exit 0 when the signature covers the file as it is, 1 when it does not (changed after signing, or
signed by another key than the issuer's), 2 when the file cannot be read as a certificate.`;

interface Shown {
  name?: unknown;
  type?: unknown;
  credentialSubject?: {
    achievement?: { resultDescription?: Array<{ id?: unknown; name?: unknown }> };
    result?: Array<{ resultDescription?: unknown; value?: unknown }>;
  };
}

/** `paysign certificate verify <file>`. */
export async function runCertificate(args: readonly string[], io: Io): Promise<number> {
  const [sub, file, ...rest] = args;
  if (sub === '--help' || sub === '-h' || sub === undefined) {
    io.out(`${CERTIFICATE_HELP}\n`);
    return sub === undefined ? 2 : 0;
  }
  if (sub !== 'verify')
    throw new CliError(`unknown subcommand "${sub}": use paysign certificate verify <file>.`);
  if (file === undefined || file.startsWith('-') || rest.length > 0)
    throw new CliError('give one certificate file: paysign certificate verify <file>.');
  const text = await readTextFile(file, 'the certificate');
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    throw new CliError(`${file} is not JSON: give the certificate file the classroom downloaded.`);
  }
  const types = (doc as Shown | null)?.type;
  if (!Array.isArray(types) || !types.includes('OpenBadgeCredential'))
    throw new CliError(`${file} is not an Open Badges credential (its type lacks OpenBadgeCredential).`);
  const check = verifyProof(doc);
  if (!check.ok) {
    io.out(`MISMATCH: ${check.reason}\n`);
    return 1;
  }
  const shown = doc as Shown;
  const titles = new Map(
    (shown.credentialSubject?.achievement?.resultDescription ?? []).map((d) => [
      String(d.id),
      String(d.name),
    ]),
  );
  io.out(`OK: signed by ${check.issuer}\n${String(shown.name)}\n`);
  for (const r of shown.credentialSubject?.result ?? [])
    io.out(
      `  ${titles.get(String(r.resultDescription)) ?? String(r.resultDescription)} (${String(r.value)})\n`,
    );
  return 0;
}
