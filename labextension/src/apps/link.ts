/**
 * The `workbench.apps` comm (contract C2): one per kernel, shared by every App output of
 * that notebook, opened on the first request and again after the kernel closed it (a
 * restart, a kernel without the workbench). Requests carry a `seq` the reply echoes; a comm
 * that closes fails its open requests, so an App's call never hangs.
 */
import { Kernel } from '@jupyterlab/services';
import { JSONObject as LuminoJSON } from '@lumino/coreutils';
import { ISignal, Signal } from '@lumino/signaling';

import { AppAsk, AppReply, IReloadPush, isObject } from './types';

export const APPS_TARGET = 'workbench.apps';

/** Why a request did not reach the kernel's Workbench: one line for the App's notice. */
export class LinkClosed extends Error {}

const NO_WORKBENCH = 'the kernel has no workbench loaded (run %load_ext workbench).';

export class AppsLink {
  constructor(private readonly kernel: Kernel.IKernelConnection) {
    kernel.statusChanged.connect(this._onStatus, this);
  }

  get reloaded(): ISignal<this, IReloadPush> {
    return this._reloaded;
  }

  /** The comm closed or could not open: why, in words for the App's notice. */
  get closed(): ISignal<this, string> {
    return this._closed;
  }

  /** Open the comm now (its close says at once whether the kernel has the workbench). */
  connect(): void {
    try {
      this._open();
    } catch (error) {
      this._closed.emit(error instanceof Error ? error.message : String(error));
    }
  }

  /** Send one request and wait for its reply (an `error` reply rejects). */
  request<T extends AppReply>(ask: AppAsk): Promise<T> {
    const comm = this._open();
    const seq = ++this._seq;
    return new Promise<T>((resolve, reject) => {
      this._pending.set(seq, { resolve: resolve as (reply: AppReply) => void, reject });
      try {
        comm.send({ ...ask, seq } as unknown as LuminoJSON);
      } catch (error) {
        this._pending.delete(seq);
        reject(new LinkClosed(String(error)));
      }
    });
  }

  dispose(): void {
    this.kernel.statusChanged.disconnect(this._onStatus, this);
    this._fail('the kernel is gone.');
    Signal.clearData(this);
  }

  private _open(): Kernel.IComm {
    if (this.kernel.isDisposed) {
      throw new LinkClosed('the kernel is gone.');
    }
    if (this._comm && !this._comm.isDisposed) {
      return this._comm;
    }
    let comm: Kernel.IComm;
    try {
      comm = this.kernel.createComm(APPS_TARGET);
    } catch (error) {
      throw new LinkClosed(`the comm could not open (${String(error)}).`);
    }
    this._comm = comm;
    comm.onMsg = msg => {
      const data: unknown = msg.content.data;
      if (comm === this._comm) {
        this._onReply(data);
      }
    };
    comm.onClose = () => {
      if (comm === this._comm) {
        this._comm = null;
        this._fail(NO_WORKBENCH);
      }
    };
    comm.open({});
    return comm;
  }

  private _onReply(data: unknown): void {
    if (!isObject(data) || typeof data.type !== 'string') {
      return;
    }
    if (data.type === 'reload') {
      if (typeof data.server === 'string' && typeof data.uri === 'string') {
        this._reloaded.emit(data as unknown as IReloadPush);
      }
      return;
    }
    const seq = typeof data.seq === 'number' ? data.seq : -1;
    const waiting = this._pending.get(seq);
    if (!waiting) {
      return;
    }
    this._pending.delete(seq);
    if (data.type === 'error') {
      waiting.reject(new Error(String(data.message ?? 'the kernel refused the request')));
    } else {
      waiting.resolve(data as unknown as AppReply);
    }
  }

  private _onStatus(_: Kernel.IKernelConnection, status: Kernel.Status): void {
    if (status === 'restarting' || status === 'autorestarting' || status === 'dead') {
      const comm = this._comm;
      this._comm = null;
      this._fail('the kernel restarted.');
      if (comm && !comm.isDisposed) {
        try {
          comm.close();
        } catch {
          // the kernel is gone: nothing to tell it
        }
      }
    }
  }

  private _fail(why: string): void {
    this._closed.emit(why);
    const pending = [...this._pending.values()];
    this._pending.clear();
    for (const waiting of pending) {
      waiting.reject(new LinkClosed(why));
    }
  }

  private _comm: Kernel.IComm | null = null;
  private _seq = 0;
  private _pending = new Map<
    number,
    { resolve: (reply: AppReply) => void; reject: (error: Error) => void }
  >();
  private _reloaded = new Signal<this, IReloadPush>(this);
  private _closed = new Signal<this, string>(this);
}

/** One link per kernel connection, dropped with it. */
export class AppsLinks {
  get(kernel: Kernel.IKernelConnection): AppsLink {
    let link = this._links.get(kernel);
    if (!link) {
      const made = new AppsLink(kernel);
      link = made;
      this._links.set(kernel, made);
      kernel.disposed.connect(() => {
        made.dispose();
        this._links.delete(kernel);
      });
    }
    return link;
  }

  private _links = new Map<Kernel.IKernelConnection, AppsLink>();
}
