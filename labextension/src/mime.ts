/**
 * Renderers for the workbench's JSON mime types, drawn from the saved JSON alone: a notebook
 * re-opened without a kernel, trusted or not, shows every call as it looked when it ran.
 */
import { IRenderMime } from '@jupyterlab/rendermime-interfaces';

const extensions: IRenderMime.IExtension[] = [];

export default extensions;
