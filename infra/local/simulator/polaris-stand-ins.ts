/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// STAND-INS, NOT SHOPIFY'S RENDERER. Minimal accessible custom elements for the Polaris web components
// the customer account extensions, the admin block and the POS extension use (s-page, s-section,
// s-admin-block, s-button, s-tile, s-pos-block, the fields...), so the bundled extension runs in a plain Chromium
// page: the twin's customer account page (simulated-customer-account.ts, which the tests' host reuses), the tests'
// admin block host (test/support/admin-block-host.ts) and the twin's POS page (simulated-pos.ts). Shopify renders these components
// itself, from a worker, with its own markup and styles; these only give each one the semantics its
// documentation promises (a page's main landmark and h1, a section's heading, a button's keyboard
// behaviour and accessible name, a banner's live region, `--copy` to the clipboard), so a keyboard and
// axe-core test reads what a customer would. They are sent to the browser as built by esbuild.

type Render = (element: StandIn) => string;

class StandIn extends HTMLElement {
  static render: Render = () => '<slot></slot>';
  static props: string[] = [];
  /** The element's focus goes to its first focusable part (a button's <button>), as `ref.focus()` expects. */
  static delegatesFocus = false;
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
      this.attachShadow({ mode: 'open', delegatesFocus: (this.constructor as typeof StandIn).delegatesFocus }).innerHTML = html;
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
button.critical { color: #a11b14; border-color: #a11b14; }
button.tile { display: flex; flex-direction: column; align-items: flex-start; gap: .25rem; width: 100%; min-height: 5rem; padding: .75rem 1rem; text-align: left; background: #f4f7ff; border-color: #2f5fb3; }
.pos-block { background: #fff; border: 1px solid #d4d4d4; border-radius: 12px; padding: 1rem 1.25rem; }
.field { display: flex; flex-direction: column; gap: .25rem; }
.field label { font-weight: 600; }
.field label:empty { display: none; }
input { font: inherit; padding: .45rem .6rem; border: 1px solid #8a8a8a; border-radius: 8px; }
input:focus-visible { outline: 3px solid #005bd3; outline-offset: 1px; }
input[aria-invalid="true"] { border-color: #a11b14; }
.details:empty, .error:empty { display: none; }
`;

/** Defines `s-<name>` with the props it reflects; setting one re-renders its shadow tree. */
function define(
  name: string,
  props: string[],
  render: Render,
  options: { role?: string; inline?: boolean; delegatesFocus?: boolean; base?: typeof StandIn } = {},
): void {
  const Element = class extends (options.base ?? StandIn) {
    static override render = render;
    static override props = props;
    static override delegatesFocus = options.delegatesFocus ?? false;
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
define(
  'button',
  ['variant', 'tone', 'loading', 'disabled', 'accessibilityLabel', 'href', 'command', 'commandFor', 'type'],
  (button) => {
    const label = button.prop('accessibilityLabel');
    const aria = label ? ` aria-label="${escapeHtml(label)}"` : '';
    if (button.prop('href')) return `<a class="button" href="${escapeHtml(button.prop('href'))}"${aria}><slot></slot></a>`;
    // Loading: announced busy and inert, yet still focusable, so the keyboard user's focus stays put.
    const busy = button.values.loading ? ' aria-busy="true" aria-disabled="true"' : '';
    const disabled = button.values.disabled ? ' disabled' : '';
    return `<button type="button" class="${button.prop('variant')} ${button.prop('tone')}"${aria}${busy}${disabled}><slot></slot></button>`;
  },
  { delegatesFocus: true },
);

// POS's components (POS UI extensions): the smart grid's tile (a button with its heading and subheading), the
// customer details screen's block, a scroll box.
define(
  'tile',
  ['heading', 'subheading', 'disabled', 'tone', 'itemCount'],
  (tile) =>
    `<button type="button" class="tile"${tile.values.disabled ? ' disabled' : ''}><strong>${escapeHtml(tile.prop('heading'))}</strong>` +
    `<span class="subdued">${escapeHtml(tile.prop('subheading'))}</span></button>`,
  { delegatesFocus: true },
);
define('pos-block', ['heading'], (block) => {
  const id = `section-heading-${++sections}`;
  return `<section class="pos-block" aria-labelledby="${id}"><h2 id="${id}">${escapeHtml(block.prop('heading'))}</h2><slot></slot></section>`;
});
define('scroll-box', [], () => '<div class="scroll"><slot></slot></div>');

let fields = 0;

/**
 * A field (s-text-field, s-number-field, s-search-field): its <input> is built once and patched in place, so typing
 * keeps the focus and the caret; `value` reads what was typed; `input` events cross the shadow boundary as they
 * are, `change` (which does not) is told to the element's listeners, on Enter too.
 */
class FieldStandIn extends StandIn {
  static inputType = 'text';
  private input: HTMLInputElement | null = null;

  override connectedCallback(): void {
    if (!this.shadowRoot) {
      const id = `field-${++fields}`;
      const root = this.attachShadow({ mode: 'open', delegatesFocus: true });
      root.innerHTML =
        `<style>${STYLE}</style><div class="field"><label for="${id}"></label>` +
        `<input id="${id}" type="${(this.constructor as typeof FieldStandIn).inputType}" aria-describedby="${id}-details ${id}-error">` +
        `<span class="subdued details" id="${id}-details"></span><span class="critical error" id="${id}-error"></span></div>`;
      this.input = root.querySelector('input');
      this.input!.addEventListener('change', () => this.dispatchEvent(new Event('change')));
      this.input!.addEventListener('keydown', (event) => {
        if (event.key === 'Enter') this.dispatchEvent(new Event('change'));
      });
    }
    this.update();
  }

  override update(): void {
    const root = this.shadowRoot;
    if (!root || !this.input) return;
    const label = this.prop('label');
    const placeholder = this.prop('placeholder');
    root.querySelector('label')!.textContent = label;
    // A field with no label (POS's search field) is named by its placeholder.
    if (label) this.input.removeAttribute('aria-label');
    else this.input.setAttribute('aria-label', placeholder);
    for (const attribute of ['placeholder', 'min', 'max']) {
      const value = this.prop(attribute);
      if (value) this.input.setAttribute(attribute, value);
      else this.input.removeAttribute(attribute);
    }
    this.input.required = Boolean(this.values.required);
    this.input.disabled = Boolean(this.values.disabled);
    const error = this.prop('error');
    this.input.setAttribute('aria-invalid', error ? 'true' : 'false');
    root.querySelector('.details')!.textContent = this.prop('details');
    root.querySelector('.error')!.textContent = error;
    const wanted = this.values.value === undefined || this.values.value === null ? '' : String(this.values.value);
    if (this.input.value !== wanted && root.activeElement !== this.input) this.input.value = wanted;
  }

  get value(): string {
    return this.input?.value ?? String(this.values.value ?? '');
  }

  set value(value: string) {
    this.values.value = value;
    if (this.isConnected) this.update();
  }
}

const FIELD_PROPS = ['label', 'placeholder', 'details', 'error', 'required', 'disabled', 'min', 'max', 'controls', 'maxLength'];
define('text-field', FIELD_PROPS, () => '', { base: FieldStandIn });
define('number-field', FIELD_PROPS, () => '', {
  base: class extends FieldStandIn {
    static override inputType = 'number';
  },
});
define('search-field', FIELD_PROPS, () => '', {
  base: class extends FieldStandIn {
    static override inputType = 'search';
  },
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
