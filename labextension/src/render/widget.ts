/**
 * The one renderer widget behind every workbench mime type: it reads the model's JSON and
 * replaces its children with what the given draw function builds.
 */
import { IRenderMime } from '@jupyterlab/rendermime-interfaces';
import { Widget } from '@lumino/widgets';

import { fallback } from './dom';

export type Draw = (doc: unknown) => HTMLElement;

export class DocRenderer extends Widget implements IRenderMime.IRenderer {
  constructor(
    private readonly mimeType: string,
    private readonly draw: Draw
  ) {
    super();
    this.addClass('jp-wb-rendered');
    this.node.dataset.mimeType = mimeType; // as JupyterLab's own renderers mark theirs
  }

  renderModel(model: IRenderMime.IMimeModel): Promise<void> {
    const doc = model.data[this.mimeType];
    let drawn: HTMLElement;
    try {
      drawn = this.draw(doc);
    } catch (error) {
      console.warn('workbench: cannot draw', this.mimeType, error);
      drawn = fallback('output', doc);
    }
    this.node.replaceChildren(drawn);
    return Promise.resolve();
  }
}
