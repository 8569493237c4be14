/**
 * One App in its iframe, spoken to through the official host library (`AppBridge` over a
 * `PostMessageTransport` bound to this iframe's window, so a message from any other window
 * is dropped). The iframe is `sandbox="allow-scripts"` without `allow-same-origin` and is
 * loaded from `srcdoc`: the App runs in an opaque origin and can reach neither the page,
 * nor the kernel's token, nor other outputs; its CSP is the first element of its page.
 *
 * The spec asks web hosts for a sandbox proxy on another origin; JupyterLab serves one
 * origin, and an opaque-origin srcdoc frame already keeps the App apart from the page, so
 * the App runs in one frame (ARCHITECTURE.md, "MCP Apps").
 */
import {
  AppBridge,
  McpUiHostContext,
  PostMessageTransport
} from '@modelcontextprotocol/ext-apps/app-bridge';

import { hostContext, themeContext } from './context';
import { allowAttribute, withCsp } from './csp';
import type { IAppPage, JSONObject } from './types';

export type DisplayMode = 'inline' | 'fullscreen';

/** What the frame asks of its output (the renderer answers through the kernel's comm). */
export interface IFrameHost {
  callTool(name: string, args: JSONObject): Promise<JSONObject>;
  readResource(uri: string): Promise<JSONObject>;
  openLink(url: string): Promise<boolean>;
  note(kind: 'message' | 'model_context', payload: JSONObject): Promise<void>;
  setDisplayMode(mode: DisplayMode): DisplayMode;
  displayMode(): DisplayMode;
  resized(height: number): void;
  stopped(why: string): void;
}

/** Resolves once `node` is in the document (looked at each animation frame) or `stop()`. */
function inDocument(node: HTMLElement, stop: () => boolean): Promise<void> {
  return new Promise(resolve => {
    const look = (): void => {
      if (node.isConnected || stop()) {
        resolve();
      } else {
        requestAnimationFrame(look);
      }
    };
    look();
  });
}

const HOST_INFO = { name: 'mcp-workbench', version: '0.1.0' };

export class AppFrame {
  constructor(
    private readonly page: IAppPage,
    private readonly input: JSONObject,
    private readonly result: JSONObject,
    private readonly host: IFrameHost
  ) {
    const iframe = document.createElement('iframe');
    iframe.className = 'jp-wb-app-frame';
    iframe.setAttribute('sandbox', 'allow-scripts');
    iframe.setAttribute('referrerpolicy', 'no-referrer');
    iframe.setAttribute('title', 'MCP App');
    const allow = allowAttribute(page.permissions);
    // an empty allow list still names nothing: the App gets no feature it did not ask for
    iframe.setAttribute('allow', allow);
    // 'loading' until the App's ui/initialize handshake completes, then 'connected': what a
    // person sees as "drawn" and a test waits for before clicking inside the App
    iframe.dataset.appState = 'loading';
    this.iframe = iframe;
  }

  readonly iframe: HTMLIFrameElement;

  /** Put the frame in `parent`, connect the bridge, then load the App's page. */
  async mount(parent: HTMLElement): Promise<void> {
    // Lab may attach an output before its cell is in the page (a notebook opened from disk),
    // and an iframe gets its window only once it is in the document.
    await inDocument(parent, () => this._disposed);
    if (this._disposed) {
      return;
    }
    parent.appendChild(this.iframe);
    const target = this.iframe.contentWindow;
    if (!target) {
      // without a window to bind to, the transport would accept messages from anyone
      throw new Error('the App frame has no window (is the output shown?)');
    }
    this._window = target;
    const bridge = new AppBridge(
      null,
      HOST_INFO,
      {
        openLinks: {},
        serverTools: {},
        serverResources: {},
        logging: {},
        message: { text: {} },
        updateModelContext: { text: {}, structuredContent: {} },
        sandbox: {
          csp: this.page.csp ?? {},
          ...(this.page.permissions ? { permissions: this.page.permissions } : {})
        }
      },
      { hostContext: hostContext(this.host.displayMode(), parent.clientWidth) }
    );
    this._bridge = bridge;
    this._wire(bridge);
    await bridge.connect(new PostMessageTransport(target, target));
    if (this._disposed) {
      return;
    }
    this._expectLoad = true;
    this.iframe.addEventListener('load', this._onLoad);
    this.iframe.srcdoc = withCsp(this.page.html, this.page.csp);
  }

  /** Tell the App the theme or display mode changed. */
  update(context: Partial<McpUiHostContext>): void {
    if (this._initialized && this._bridge) {
      void this._bridge.sendHostContextChange(context);
    } else {
      this._bridge?.setHostContext({ ...hostContext(this.host.displayMode(), 0), ...context });
    }
  }

  themeChanged(): void {
    this.update(themeContext());
  }

  dispose(): void {
    if (this._disposed) {
      return;
    }
    this._disposed = true;
    this.iframe.removeEventListener('load', this._onLoad);
    const bridge = this._bridge;
    this._bridge = null;
    if (bridge) {
      if (this._initialized) {
        // the spec asks for a teardown notice; the output is going, so it is not awaited
        bridge.teardownResource({}).catch(() => undefined);
      }
      void bridge.close().catch(() => undefined);
    }
    this.iframe.remove();
  }

  private _wire(bridge: AppBridge): void {
    bridge.oninitialized = () => {
      this._initialized = true;
      this.iframe.dataset.appState = 'connected';
      void bridge.sendToolInput({ arguments: this.input });
      void bridge.sendToolResult(this.result as Parameters<AppBridge['sendToolResult']>[0]);
    };
    bridge.onsizechange = ({ height }) => {
      if (typeof height === 'number' && Number.isFinite(height)) {
        this.host.resized(height);
      }
    };
    bridge.oncalltool = async params =>
      (await this.host.callTool(params.name, (params.arguments ?? {}) as JSONObject)) as Awaited<
        ReturnType<NonNullable<AppBridge['oncalltool']>>
      >;
    bridge.onreadresource = async params =>
      (await this.host.readResource(params.uri)) as Awaited<
        ReturnType<NonNullable<AppBridge['onreadresource']>>
      >;
    bridge.onopenlink = async params => {
      const opened = await this.host.openLink(params.url);
      return opened ? {} : { isError: true };
    };
    bridge.onmessage = async params => {
      await this.host.note('message', params as unknown as JSONObject);
      return {};
    };
    bridge.onupdatemodelcontext = async params => {
      await this.host.note('model_context', params as unknown as JSONObject);
      return {};
    };
    bridge.onrequestdisplaymode = async params => {
      const wanted = params.mode === 'fullscreen' ? 'fullscreen' : 'inline';
      const declared = bridge.getAppCapabilities()?.availableDisplayModes;
      const mode =
        declared && !declared.includes(wanted) ? this.host.displayMode() : this.host.setDisplayMode(wanted);
      return { mode };
    };
    bridge.onloggingmessage = params => {
      console.debug('MCP App log', params.level, params.data);
    };
  }

  /**
   * The srcdoc's load is the one expected; any later load is the App leaving its page (a
   * navigation) or a new window (the frame was moved): the bridge stops either way, since
   * the window it trusts no longer holds the App it loaded.
   */
  private _onLoad = (): void => {
    if (this._expectLoad && this.iframe.contentWindow === this._window) {
      this._expectLoad = false;
      return;
    }
    const moved = this.iframe.contentWindow !== this._window;
    this.dispose();
    this.host.stopped(moved ? 'moved' : 'navigated');
  };

  private _bridge: AppBridge | null = null;
  private _window: Window | null = null;
  private _initialized = false;
  private _expectLoad = false;
  private _disposed = false;
}
