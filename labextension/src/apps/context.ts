/**
 * The host context an App gets: JupyterLab's theme (light or dark, and the spec's style
 * variables read from the `--jp-*` ones, resolved to values, since an App's document cannot
 * see the page's stylesheets), the browser's locale and time zone, the display modes.
 */
import type { McpUiHostContext, McpUiStyles } from '@modelcontextprotocol/ext-apps/app-bridge';

/** The spec's variables, each from the JupyterLab variable closest in meaning. */
const STYLE_SOURCES: Record<string, string> = {
  '--color-background-primary': '--jp-layout-color0',
  '--color-background-secondary': '--jp-layout-color1',
  '--color-background-tertiary': '--jp-layout-color2',
  '--color-background-inverse': '--jp-inverse-layout-color0',
  '--color-background-ghost': '--jp-layout-color0',
  '--color-background-info': '--jp-info-color3',
  '--color-background-danger': '--jp-error-color3',
  '--color-background-success': '--jp-success-color3',
  '--color-background-warning': '--jp-warn-color3',
  '--color-background-disabled': '--jp-layout-color3',
  '--color-text-primary': '--jp-ui-font-color1',
  '--color-text-secondary': '--jp-ui-font-color2',
  '--color-text-tertiary': '--jp-ui-font-color3',
  '--color-text-inverse': '--jp-ui-inverse-font-color1',
  '--color-text-info': '--jp-info-color0',
  '--color-text-danger': '--jp-error-color0',
  '--color-text-success': '--jp-success-color0',
  '--color-text-warning': '--jp-warn-color0',
  '--color-text-disabled': '--jp-ui-font-color3',
  '--color-text-ghost': '--jp-ui-font-color2',
  '--color-border-primary': '--jp-border-color1',
  '--color-border-secondary': '--jp-border-color2',
  '--color-border-tertiary': '--jp-border-color3',
  '--color-border-inverse': '--jp-inverse-border-color',
  '--color-border-ghost': '--jp-border-color3',
  '--color-border-info': '--jp-info-color1',
  '--color-border-danger': '--jp-error-color1',
  '--color-border-success': '--jp-success-color1',
  '--color-border-warning': '--jp-warn-color1',
  '--color-border-disabled': '--jp-border-color3',
  '--color-ring-primary': '--jp-brand-color1',
  '--color-ring-secondary': '--jp-brand-color2',
  '--color-ring-inverse': '--jp-inverse-layout-color1',
  '--color-ring-info': '--jp-info-color1',
  '--color-ring-danger': '--jp-error-color1',
  '--color-ring-success': '--jp-success-color1',
  '--color-ring-warning': '--jp-warn-color1',
  '--font-sans': '--jp-ui-font-family',
  '--font-mono': '--jp-code-font-family',
  '--font-text-xs-size': '--jp-ui-font-size0',
  '--font-text-sm-size': '--jp-ui-font-size1',
  '--font-text-md-size': '--jp-content-font-size1',
  '--font-text-lg-size': '--jp-ui-font-size2',
  '--font-heading-xs-size': '--jp-content-font-size1',
  '--font-heading-sm-size': '--jp-content-font-size2',
  '--font-heading-md-size': '--jp-content-font-size3',
  '--font-heading-lg-size': '--jp-content-font-size4',
  '--font-heading-xl-size': '--jp-content-font-size5',
  '--font-text-md-line-height': '--jp-content-line-height',
  '--border-radius-sm': '--jp-border-radius',
  '--border-width-regular': '--jp-border-width',
  '--shadow-sm': '--jp-elevation-z1',
  '--shadow-md': '--jp-elevation-z4',
  '--shadow-lg': '--jp-elevation-z8'
};

/** The inline height limit: taller Apps scroll inside their frame (or go full screen). */
export const MAX_INLINE_HEIGHT = 800;

/** Whether JupyterLab shows a light theme now (the body's data attribute says so). */
export function isLightTheme(): boolean {
  return document.body.dataset.jpThemeLight !== 'false';
}

/** The spec's style variables with JupyterLab's current values. */
export function themeStyles(): McpUiStyles {
  const computed = getComputedStyle(document.body);
  const variables: Record<string, string> = {};
  for (const [name, source] of Object.entries(STYLE_SOURCES)) {
    const value = computed.getPropertyValue(source).trim();
    if (value) {
      variables[name] = value;
    }
  }
  return variables as McpUiStyles;
}

/** The theme part of the context (sent again when the person switches themes). */
export function themeContext(): Pick<McpUiHostContext, 'theme' | 'styles'> {
  return { theme: isLightTheme() ? 'light' : 'dark', styles: { variables: themeStyles() } };
}

export function hostContext(displayMode: 'inline' | 'fullscreen', width: number): McpUiHostContext {
  let timeZone: string | undefined;
  try {
    timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  } catch {
    timeZone = undefined;
  }
  return {
    ...themeContext(),
    displayMode,
    availableDisplayModes: ['inline', 'fullscreen'],
    containerDimensions:
      displayMode === 'inline'
        ? { maxHeight: MAX_INLINE_HEIGHT, ...(width > 0 ? { width } : {}) }
        : { height: window.innerHeight, width: window.innerWidth },
    locale: navigator.language,
    ...(timeZone ? { timeZone } : {}),
    platform: 'web',
    userAgent: 'mcp-workbench JupyterLab',
    deviceCapabilities: { hover: matchMedia('(hover: hover)').matches, touch: navigator.maxTouchPoints > 0 }
  };
}
