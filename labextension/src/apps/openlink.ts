/**
 * `ui/open-link`: an App may ask to open an address; the person sees it as text and decides.
 * Only http and https open, in a new tab with neither opener nor referrer.
 */
import { showDialog, Dialog } from '@jupyterlab/apputils';
import { Widget } from '@lumino/widgets';

import { el } from '../render/dom';

let asking = false;

/** Ask before opening a link an App wants; only http(s), in a new tab without an opener. */
export async function confirmLink(url: string, app: string): Promise<boolean> {
  if (asking) {
    throw new Error('Another link is waiting for an answer.'); // no stack of dialogs
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error('Invalid URL');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new Error('Only http and https links open.');
  }
  const body = el('div', 'jp-wb-app-link');
  body.appendChild(el('div', '', `The MCP App ${app} asks to open this address in a new tab:`));
  body.appendChild(el('code', 'jp-wb-uri jp-wb-app-link-url', parsed.href));
  asking = true;
  let answer: Dialog.IResult<unknown>;
  try {
    answer = await showDialog({
      title: 'Open a link from an App?',
      body: new Widget({ node: body }),
      buttons: [Dialog.cancelButton(), Dialog.okButton({ label: 'Open' })]
    });
  } finally {
    asking = false;
  }
  if (!answer.button.accept) {
    throw new Error('Link opening denied by user');
  }
  window.open(parsed.href, '_blank', 'noopener,noreferrer');
  return true;
}
