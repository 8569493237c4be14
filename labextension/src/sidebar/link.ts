/**
 * The panel's link to one notebook's kernel: the `workbench.sidebar` comm, opened when the
 * panel binds a notebook, again after a restart, and again after a cell that mentions the
 * workbench runs in a kernel that had no comm target (`%load_ext workbench` typed by hand).
 * The browser never speaks MCP: everything comes from the kernel's Workbench.
 */
import { ISessionContext } from '@jupyterlab/apputils';
import { Kernel, KernelMessage } from '@jupyterlab/services';
import { ISignal, Signal } from '@lumino/signaling';

import { IState, Reply, Request, TARGET, isReply } from './protocol';

/**
 * - `no-notebook`: no notebook is active; `no-kernel`: it has no kernel (yet);
 * - `connecting`: the comm is opening; `ready`: the kernel sent its state;
 * - `missing`: the kernel closed the comm at once: the workbench is not loaded there.
 */
export type LinkStatus = 'no-notebook' | 'no-kernel' | 'connecting' | 'missing' | 'ready';

type Ask = Request extends infer R ? (R extends { seq: number } ? Omit<R, 'seq'> : never) : never;

export class KernelLink {
  get status(): LinkStatus {
    return this._status;
  }

  /** The last state the kernel sent (null until one arrived on this comm). */
  get state(): IState | null {
    return this._state;
  }

  /** The notebook's session, or null. */
  get context(): ISessionContext | null {
    return this._context;
  }

  get statusChanged(): ISignal<this, LinkStatus> {
    return this._statusChanged;
  }

  /** Every reply and pushed state, as the kernel sent it. */
  get replied(): ISignal<this, Reply> {
    return this._replied;
  }

  /** Follow another notebook's session (null: no notebook). */
  bind(context: ISessionContext | null): void {
    if (context === this._context) {
      return;
    }
    if (this._context) {
      this._context.kernelChanged.disconnect(this._onKernelChanged, this);
      this._context.statusChanged.disconnect(this._onStatus, this);
    }
    this._context = context;
    if (context) {
      context.kernelChanged.connect(this._onKernelChanged, this);
      context.statusChanged.connect(this._onStatus, this);
    }
    this._follow(context?.session?.kernel ?? null);
  }

  /** Send a request; its `seq` (or -1 when the link is not ready). */
  request(ask: Ask): number {
    if (!this._comm || this._status !== 'ready') {
      return -1;
    }
    const seq = ++this._seq;
    this._comm.send({ ...ask, seq });
    return seq;
  }

  /** Run `%load_ext workbench` in the kernel (not in a cell), then open the comm again. */
  async loadExtension(): Promise<string | null> {
    const kernel = this._kernel;
    if (!kernel) {
      return 'No kernel.';
    }
    const future = kernel.requestExecute({
      code: '%load_ext workbench',
      silent: true,
      store_history: false
    });
    let failure: string | null = null;
    future.onIOPub = msg => {
      if (KernelMessage.isErrorMsg(msg)) {
        failure = `${msg.content.ename}: ${msg.content.evalue}`;
      }
    };
    const reply = await future.done;
    if (reply.content.status !== 'ok' && !failure) {
      failure = `%load_ext workbench ended with ${reply.content.status}`;
    }
    if (!failure) {
      this._open();
    }
    return failure;
  }

  /** Ask the kernel for its state again (what changed outside cells: a server that died). */
  refresh(): void {
    if (this._status === 'ready') {
      this.request({ type: 'refresh' });
    } else {
      this._open();
    }
  }

  dispose(): void {
    this.bind(null);
  }

  private _onKernelChanged(): void {
    this._follow(this._context?.session?.kernel ?? null);
  }

  private _onStatus(_: ISessionContext, status: Kernel.Status): void {
    if (status === 'restarting' || status === 'autorestarting' || status === 'dead') {
      this._reopen = true;
      this._close();
      this._setStatus(status === 'dead' ? 'no-kernel' : 'connecting');
    } else if (status === 'idle' && this._reopen) {
      this._reopen = false;
      this._open();
    }
  }

  private _follow(kernel: Kernel.IKernelConnection | null): void {
    if (kernel === this._kernel) {
      return;
    }
    this._kernel?.iopubMessage.disconnect(this._onIOPub, this);
    this._close();
    this._kernel = kernel;
    kernel?.iopubMessage.connect(this._onIOPub, this);
    if (!this._context) {
      this._setStatus('no-notebook');
    } else if (!kernel) {
      this._setStatus('no-kernel');
    } else {
      this._open();
    }
  }

  /** While the target is missing: a cell naming the workbench may have loaded it. */
  private _onIOPub(_: Kernel.IKernelConnection, msg: KernelMessage.IIOPubMessage): void {
    if (this._status !== 'missing') {
      return;
    }
    if (KernelMessage.isExecuteInputMsg(msg) && /workbench/.test(msg.content.code)) {
      this._retryAfter = (msg.parent_header as KernelMessage.IHeader).msg_id;
    } else if (
      KernelMessage.isStatusMsg(msg) &&
      msg.content.execution_state === 'idle' &&
      this._retryAfter !== null &&
      (msg.parent_header as KernelMessage.IHeader).msg_id === this._retryAfter
    ) {
      this._retryAfter = null;
      this._open();
    }
  }

  private _open(): void {
    const kernel = this._kernel;
    this._close();
    if (!kernel || kernel.isDisposed) {
      this._setStatus(this._context ? 'no-kernel' : 'no-notebook');
      return;
    }
    this._setStatus('connecting');
    let comm: Kernel.IComm;
    try {
      comm = kernel.createComm(TARGET);
    } catch (error) {
      console.warn('MCP panel: could not open the comm', error);
      this._setStatus('missing');
      return;
    }
    this._comm = comm;
    comm.onMsg = msg => {
      if (comm !== this._comm) {
        return;
      }
      const data: unknown = msg.content.data;
      if (!isReply(data)) {
        return;
      }
      if (data.type === 'state') {
        this._state = data;
        this._setStatus('ready');
      }
      this._replied.emit(data);
    };
    comm.onClose = () => {
      if (comm === this._comm) {
        this._comm = null;
        this._state = null;
        this._setStatus('missing');
      }
    };
    comm.open({});
  }

  private _close(): void {
    const comm = this._comm;
    this._comm = null;
    this._state = null;
    if (comm && !comm.isDisposed) {
      try {
        comm.close();
      } catch {
        // the kernel is gone: nothing to tell it
      }
    }
  }

  private _setStatus(status: LinkStatus): void {
    if (status !== this._status) {
      this._status = status;
      this._statusChanged.emit(status);
    }
  }

  private _context: ISessionContext | null = null;
  private _kernel: Kernel.IKernelConnection | null = null;
  private _comm: Kernel.IComm | null = null;
  private _state: IState | null = null;
  private _status: LinkStatus = 'no-notebook';
  private _seq = 0;
  private _reopen = false;
  private _retryAfter: string | null = null;
  private _statusChanged = new Signal<this, LinkStatus>(this);
  private _replied = new Signal<this, Reply>(this);
}
