import { JupyterFrontEndPlugin } from '@jupyterlab/application';

/** The tool browser snapshot's plugins (filled in by the snapshot's own modules). */
export const snapshotPlugins: JupyterFrontEndPlugin<any>[] = [];
