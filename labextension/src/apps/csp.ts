/**
 * The App's Content Security Policy, built from the resource's `_meta.ui.csp` and put in a
 * `<meta http-equiv>` as the very first element the page's parser meets, so nothing in the
 * App's HTML (a `<head>` inside a comment, a script) runs before it. Nothing is reachable
 * unless declared; a declared domain that is not a plain origin pattern is dropped, so a
 * server's words can never add a directive of their own.
 */
import type { IAppCsp } from './types';

/** scheme://host[:port], a leading `*.` allowed; no path, quote, space or `;`. */
const ORIGIN = /^(https?|wss?):\/\/(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*(:(\d{1,5}|\*))?\/?$/i;

/** The declared domains that are origin patterns (anything else is dropped). */
export function origins(list: unknown): string[] {
  if (!Array.isArray(list)) {
    return [];
  }
  return list
    .filter((item): item is string => typeof item === 'string' && ORIGIN.test(item.trim()))
    .map(item => item.trim().replace(/\/$/, ''));
}

function sources(first: string[], list: string[], none = "'none'"): string {
  const all = [...first, ...list];
  return all.length ? all.join(' ') : none;
}

/** The policy for one App (the spec's restrictive default when it declares nothing). */
export function buildCsp(csp: IAppCsp | null | undefined): string {
  const resources = origins(csp?.resourceDomains);
  const connect = origins(csp?.connectDomains);
  const frames = origins(csp?.frameDomains);
  const bases = origins(csp?.baseUriDomains);
  return [
    "default-src 'none'",
    `script-src ${sources(["'unsafe-inline'"], resources)}`,
    `style-src ${sources(["'unsafe-inline'"], resources)}`,
    `img-src ${sources(['data:'], resources)}`,
    `font-src ${sources(['data:'], resources)}`,
    `media-src ${sources(['data:'], resources)}`,
    `connect-src ${sources([], connect)}`,
    `frame-src ${sources([], frames)}`,
    `base-uri ${sources([], bases)}`,
    "object-src 'none'",
    "form-action 'none'"
  ].join('; ');
}

function attribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

/** A leading doctype (after comments and blank space) stays first: the page keeps its mode. */
const DOCTYPE = /^(\uFEFF?\s*(?:<!--[\s\S]*?-->\s*)*<!doctype[^>]*>)/i;

/** The App's HTML with the policy as its first element. */
export function withCsp(html: string, csp: IAppCsp | null | undefined): string {
  const meta = `<meta http-equiv="Content-Security-Policy" content="${attribute(buildCsp(csp))}">`;
  const match = DOCTYPE.exec(html);
  if (match) {
    return match[1] + meta + html.slice(match[1].length);
  }
  return meta + html;
}

/** The iframe's `allow` attribute: only the features the resource asked for. */
export function allowAttribute(permissions: unknown): string {
  if (typeof permissions !== 'object' || permissions === null) {
    return '';
  }
  const known: Record<string, string> = {
    camera: 'camera',
    microphone: 'microphone',
    geolocation: 'geolocation',
    clipboardWrite: 'clipboard-write'
  };
  return Object.keys(permissions)
    .filter(key => key in known)
    .map(key => known[key])
    .join('; ');
}
