/**
 * A server's icon, drawn only when it is safe (the rule is workbench/tools/icons.py's): a
 * small `data:` image URI becomes an `<img>` (an SVG in an `<img>` runs no script); anything
 * else, an https URL above all, draws nothing, since fetching a URL a server named would tell
 * that third party who is looking. The kernel already sends only drawable icons; this checks
 * again, as a saved notebook's outputs may have been edited by anyone.
 */
import { el, record } from './dom';

/** The longest `data:` URI drawn (the kernel's `MAX_ICON_CHARS`). */
export const MAX_ICON_CHARS = 65536;

const DRAWABLE =
  /^data:image\/(png|jpe?g|gif|webp|svg\+xml)(;[A-Za-z0-9.+-]+=[A-Za-z0-9.+-]+)*(;base64)?,[A-Za-z0-9!$&()*+,\-./:;=?@_~%]*$/i;

/** Whether `src` may be an `<img>`'s source: a small data: image URI and nothing else. */
export function drawableIcon(src: unknown): src is string {
  return typeof src === 'string' && src.length <= MAX_ICON_CHARS && DRAWABLE.test(src);
}

/** Whether JupyterLab's theme is light (true), dark (false), or unknown (undefined). */
export function themeIsLight(): boolean | undefined {
  const light = document.body.dataset.jpThemeLight;
  return light === undefined ? undefined : light === 'true';
}

/**
 * The `<img>` of an icon document (`{any, light?, dark?}`) for the page's theme, or null
 * when it has none that may be drawn. It never carries a referrer and loads nothing remote.
 */
export function iconNode(icon: unknown): HTMLImageElement | null {
  const choices = record(icon);
  const light = themeIsLight();
  const themed = light === undefined ? undefined : choices[light ? 'light' : 'dark'];
  const src = themed ?? choices.any;
  if (!drawableIcon(src)) {
    return null;
  }
  const img = el('img', 'jp-wb-icon');
  img.alt = '';
  img.referrerPolicy = 'no-referrer';
  img.src = src;
  return img;
}
