/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// STAND-INS, NOT SHOPIFY'S RENDERER. Minimal accessible custom elements for the Polaris web components
// the customer account extensions and the admin block use (s-page, s-section, s-admin-block, s-button...),
// so the bundled extension runs in a plain Chromium page: the twin's customer account page
// (simulated-customer-account.ts, which the tests' host reuses) and the tests' admin block host
// (test/support/admin-block-host.ts). Shopify renders these components
// itself, from a worker, with its own markup and styles; these only give each one the semantics its
// documentation promises (a page's main landmark and h1, a section's heading, a button's keyboard
// behaviour and accessible name, a banner's live region, `--copy` to the clipboard), so a keyboard and
// axe-core test reads what a customer would. They are sent to the browser as built by esbuild.

type Render = (element: StandIn) => string;

class StandIn extends HTMLElement {
  static render: Render = () => '<slot></slot>';
  static props: string[] = [];
  /** Property values, set by Preact (a prop the element has is set as a property). */
  values: Record<string, unknown> = {};

  connectedCallback(): void {
    this.update();
  }

  /**
   * Renders the shadow tree; an element rendered again keeps its nodes where the tags match (attributes
   * and contents patched), so a focused button keeps the focus when its `loading` or label changes.
   */
  update(): void {
    const html = `<style>${STYLE}</style>${(this.constructor as typeof StandIn).render(this)}`;
    if (!this.shadowRoot) {
      this.attachShadow({ mode: 'open' }).innerHTML = html;
      return;
    }
    const next = document.createElement('template');
    next.innerHTML = html;
    const before = [...this.shadowRoot.children];
    const after = [...next.content.children];
    if (before.length !== after.length || before.some((node, index) => node.tagName !== after[index]!.tagName)) {
      this.shadowRoot.innerHTML = html;
      return;
    }
    before.forEach((node, index) => {
      const wanted = after[index]!;
      for (const { name } of [...node.attributes]) if (!wanted.hasAttribute(name)) node.removeAttribute(name);
      for (const { name, value } of [...wanted.attributes]) if (node.getAttribute(name) !== value) node.setAttribute(name, value);
      if (node.innerHTML !== wanted.innerHTML) node.innerHTML = wanted.innerHTML;
    });
  }

  /** Preact sets a few props (href, role...) as attributes whatever the element has: those are read too. */
  static get observedAttributes(): string[] {
    return ['href'];
  }

  attributeChangedCallback(): void {
    if (this.isConnected) this.update();
  }

  prop(name: string): string {
    const value = this.values[name] ?? this.getAttribute(name);
    return value === undefined || value === null || value === false ? '' : String(value);
  }
}

const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!);

const STYLE = `
:host { display: block; font: 15px/1.5 system-ui, sans-serif; color: #1a1a1a; }
:host([hidden]) { display: none; }
main { max-width: 46rem; margin: 0 auto; padding: 1.5rem; }
h1 { font-size: 1.6rem; margin: 0 0 1rem; }
h2 { font-size: 1.2rem; margin: 0 0 .75rem; }
h3 { font-size: 1.05rem; margin: 0; }
p { margin: 0; }
section { background: #fff; border: 1px solid #d4d4d4; border-radius: 12px; padding: 1rem 1.25rem; }
.stack { display: flex; flex-direction: column; gap: .75rem; }
.stack.inline { flex-direction: row; flex-wrap: wrap; align-items: center; }
.box { border: 1px solid #e3e3e3; border-radius: 8px; padding: .75rem; }
button, a.button { font: inherit; border-radius: 8px; padding: .45rem 1rem; border: 1px solid #8a8a8a; background: #fff; color: #1a1a1a; cursor: pointer; text-decoration: none; display: inline-block; }
button.primary { background: #1a1a1a; color: #fff; border-color: #1a1a1a; }
button:disabled { background: #ebebeb; color: #4a4a4a; border-color: #b5b5b5; cursor: default; }
button:focus-visible, a:focus-visible { outline: 3px solid #005bd3; outline-offset: 2px; }
a { color: #004bb0; }
.banner { border-radius: 10px; padding: .75rem 1rem; border: 1px solid; display: flex; flex-direction: column; gap: .5rem; }
.banner.success { background: #e6f6ec; border-color: #2e7d4f; }
.banner.critical { background: #fde8e8; border-color: #b3261e; }
.banner.warning, .banner.caution { background: #fff4d6; border-color: #8a6100; }
.banner.info, .banner.auto { background: #eaf2ff; border-color: #2f5fb3; }
.subdued { color: #4a4a4a; }
.warning { color: #7a4f00; }
.critical { color: #a11b14; }
.badge { background: #e3e3e3; border-radius: 999px; padding: .1rem .6rem; font-size: .85rem; font-weight: 600; }
progress { width: 100%; height: .75rem; }
.dismiss { align-self: flex-end; padding: .1rem .6rem; }
`;

/** Defines `s-<name>` with the props it reflects; setting one re-renders its shadow tree. */
function define(name: string, props: string[], render: Render, options: { role?: string; inline?: boolean } = {}): void {
  const Element = class extends StandIn {
    static override render = render;
    static override props = props;
    override connectedCallback(): void {
      if (options.role && !this.hasAttribute('role')) this.setAttribute('role', options.role);
      if (options.inline) this.style.display = 'inline';
      super.connectedCallback();
    }
  };
  for (const prop of props) {
    Object.defineProperty(Element.prototype, prop, {
      get(this: StandIn) {
        return this.values[prop];
      },
      set(this: StandIn, value: unknown) {
        this.values[prop] = value;
        if (this.isConnected) this.update();
      },
    });
  }
  customElements.define(`s-${name}`, Element);
}

const tone = (element: StandIn, fallback = ''): string => element.prop('tone') || fallback;

define('page', ['heading', 'subheading'], (page) => `<main><h1>${escapeHtml(page.prop('heading'))}</h1><slot></slot></main>`);

let sections = 0;
define('section', ['heading', 'accessibilityLabel'], (section) => {
  const id = `section-heading-${++sections}`;
  const heading = section.prop('heading');
  return heading
    ? `<section aria-labelledby="${id}"><h2 id="${id}">${escapeHtml(heading)}</h2><slot></slot></section>`
    : `<section aria-label="${escapeHtml(section.prop('accessibilityLabel'))}"><slot></slot></section>`;
});

// The admin's block on a resource page (admin UI extensions): a card headed by the block's heading.
define('admin-block', ['heading', 'collapsedSummary'], (block) => {
  const id = `section-heading-${++sections}`;
  return `<section class="admin-block" aria-labelledby="${id}"><h2 id="${id}">${escapeHtml(block.prop('heading'))}</h2><slot></slot></section>`;
});

define('stack', ['direction', 'gap', 'alignItems', 'padding'], (stack) =>
  `<div class="stack ${stack.prop('direction') === 'inline' ? 'inline' : ''}"><slot></slot></div>`);
define('box', ['padding', 'border', 'borderRadius'], () => '<div class="box"><slot></slot></div>');
define('heading', ['accessibilityRole'], () => '<h3><slot></slot></h3>');
define('paragraph', ['tone', 'color', 'type'], (paragraph) => `<p class="${tone(paragraph)} ${paragraph.prop('color')}"><slot></slot></p>`);
define(
  'text',
  ['tone', 'color', 'type'],
  (text) =>
    text.prop('type') === 'strong'
      ? '<strong><slot></slot></strong>'
      : `<span class="${tone(text)} ${text.prop('color')}"><slot></slot></span>`,
  { inline: true },
);
define('badge', ['tone', 'color', 'size'], () => '<span class="badge"><slot></slot></span>', { inline: true });
define('divider', ['direction'], () => '<hr>');
define('unordered-list', [], () => '<div class="stack"><slot></slot></div>', { role: 'list' });
define('list-item', [], () => '<slot></slot>', { role: 'listitem' });
define(
  'link',
  ['href', 'target', 'accessibilityLabel', 'tone'],
  (link) => {
    const label = link.prop('accessibilityLabel');
    return `<a href="${escapeHtml(link.prop('href'))}"${label ? ` aria-label="${escapeHtml(label)}"` : ''}><slot></slot></a>`;
  },
  { inline: true },
);
define('progress', ['value', 'max', 'accessibilityLabel', 'tone'], (progress) =>
  `<progress value="${escapeHtml(progress.prop('value'))}" max="${escapeHtml(progress.prop('max') || '100')}" aria-label="${escapeHtml(progress.prop('accessibilityLabel'))}"></progress>`);
define('spinner', ['accessibilityLabel', 'size'], (spinner) =>
  `<span role="status">${escapeHtml(spinner.prop('accessibilityLabel'))}…</span>`);
define('banner', ['heading', 'tone', 'dismissible', 'collapsible', 'ondismiss'], (banner) =>
  `<div class="banner ${tone(banner, 'info')}" role="${tone(banner) === 'critical' ? 'alert' : 'status'}">` +
  (banner.prop('heading') ? `<strong>${escapeHtml(banner.prop('heading'))}</strong>` : '') +
  '<slot></slot>' +
  (banner.values.dismissible ? '<button type="button" class="dismiss" aria-label="Dismiss">×</button>' : '') +
  '</div>');
define('clipboard-item', ['text', 'oncopyerror'], () => '');
define('button', ['variant', 'tone', 'loading', 'disabled', 'accessibilityLabel', 'href', 'command', 'commandFor', 'type'], (button) => {
  const label = button.prop('accessibilityLabel');
  const aria = label ? ` aria-label="${escapeHtml(label)}"` : '';
  if (button.prop('href')) return `<a class="button" href="${escapeHtml(button.prop('href'))}"${aria}><slot></slot></a>`;
  // Loading: announced busy and inert, yet still focusable, so the keyboard user's focus stays put.
  const busy = button.values.loading ? ' aria-busy="true" aria-disabled="true"' : '';
  const disabled = button.values.disabled ? ' disabled' : '';
  return `<button type="button" class="${button.prop('variant')}"${aria}${busy}${disabled}><slot></slot></button>`;
});

// A loading button does nothing when pressed (its listeners never hear the click).
document.addEventListener(
  'click',
  (event) => {
    if (event.composedPath().some((node) => node instanceof StandIn && node.tagName === 'S-BUTTON' && node.values.loading)) {
      event.stopImmediatePropagation();
      event.preventDefault();
    }
  },
  { capture: true },
);

// A banner's dismiss button tells the element's `dismiss` listeners (Preact's `onDismiss`).
document.addEventListener('click', (event) => {
  const inner = event.composedPath()[0];
  if (inner instanceof HTMLButtonElement && inner.classList.contains('dismiss')) {
    const host = (inner.getRootNode() as ShadowRoot).host;
    host.dispatchEvent(new Event('dismiss'));
  }
});

// `command="--copy"` with `commandFor`: the button copies its s-clipboard-item's text, which then fires `copy`.
document.addEventListener('click', (event) => {
  const button = event.composedPath().find((node): node is StandIn => node instanceof StandIn && node.tagName === 'S-BUTTON');
  if (!button || button.values.command !== '--copy') return;
  const item = document.getElementById(String(button.values.commandFor));
  if (!(item instanceof StandIn)) return;
  navigator.clipboard.writeText(String(item.values.text ?? '')).then(
    () => item.dispatchEvent(new Event('copy')),
    () => item.dispatchEvent(new Event('copyerror')),
  );
});

// A module: its names stay its own in the test programme's type-check.
export {};
