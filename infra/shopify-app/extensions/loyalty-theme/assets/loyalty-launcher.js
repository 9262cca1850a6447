// The rewards panel of the app embed (blocks/loyalty-launcher.liquid). Plain JavaScript, no framework.
// The embed loads this script (and the panel's stylesheet) when the shopper first reaches for the
// launcher; a click that came before it opens the panel as soon as both are here. Every call goes to the
// app proxy on the shop's own origin; the shopper is whoever Shopify signed in, never an id this script sends.
(function () {
  'use strict';
  var root = document.getElementById('loyalty-embed');
  if (!root || root.getAttribute('data-ready')) return;
  root.setAttribute('data-ready', '1');

  var T = JSON.parse(root.querySelector('[data-loyalty-texts]').textContent);
  var base = root.getAttribute('data-proxy');
  var launcher = root.querySelector('.loy-launcher');
  var panel = root.querySelector('.loy-panel');
  var title = panel.querySelector('.loy-title');
  var body = panel.querySelector('.loy-body');
  var live = panel.querySelector('.loy-live');
  var lang = document.documentElement.lang || 'en';
  var plural = new Intl.PluralRules(lang);
  var state = { program: null, member: null, loggedIn: false, activity: [], code: null };
  var loading = null;

  function fmt(text, values) {
    return text.replace(/\{(\w+)\}/g, function (all, key) {
      return Object.prototype.hasOwnProperty.call(values, key) ? String(values[key]) : all;
    });
  }
  function points(n) {
    return fmt(T.points[plural.select(n)] || T.points.other, { n: Number(n).toLocaleString(lang) });
  }
  function date(iso) {
    return new Date(iso).toLocaleDateString(lang, { year: 'numeric', month: 'short', day: 'numeric' });
  }
  // Builds an element; text is always set as text, never parsed as HTML.
  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    for (var name in attrs || {}) {
      if (name === 'text') node.textContent = attrs[name];
      else if (name === 'onclick') node.addEventListener('click', attrs[name]);
      else if (attrs[name] !== null && attrs[name] !== false) node.setAttribute(name, attrs[name] === true ? '' : attrs[name]);
    }
    (children || []).forEach(function (child) {
      if (child) node.appendChild(child);
    });
    return node;
  }
  function section(heading, id, children) {
    return el('section', { class: 'loy-section', 'aria-labelledby': id }, [el('h3', { id: id, text: heading })].concat(children));
  }
  function say(text) {
    // Emptied first, so the same message said twice is announced twice.
    live.textContent = '';
    setTimeout(function () {
      live.textContent = text;
    }, 50);
  }
  function idempotencyKey() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    return String(Date.now()) + Math.random().toString(16).slice(2);
  }

  function api(method, path, payload) {
    var init = { method: method, credentials: 'same-origin', headers: { Accept: 'application/json' } };
    if (method === 'POST') {
      init.headers['Content-Type'] = 'application/json';
      init.headers['Idempotency-Key'] = idempotencyKey();
      init.body = JSON.stringify(payload || {});
    }
    return fetch(base + path, init).then(function (response) {
      return response
        .json()
        .catch(function () {
          return null;
        })
        .then(function (json) {
          if (!response.ok) {
            var error = json && json.errors && json.errors[0];
            throw new Error((error && error.detail) || T.error);
          }
          return json;
        });
    });
  }

  function load() {
    body.setAttribute('aria-busy', 'true');
    loading = Promise.all([api('GET', '/program'), api('GET', '/member')])
      .then(function (answers) {
        state.program = answers[0].data.attributes;
        state.loggedIn = answers[1].meta.logged_in;
        state.member = answers[1].data ? answers[1].data.attributes : null;
        hold(state.program);
        return state.member ? api('GET', '/member/activity?page%5Bsize%5D=5') : { data: [] };
      })
      .then(function (activity) {
        state.activity = activity.data;
        render();
      })
      .catch(function (error) {
        loading = null;
        body.replaceChildren(el('p', { class: 'loy-error', text: error.message }));
        body.setAttribute('aria-busy', 'false');
      });
    return loading;
  }

  function copy(text, input, done) {
    var copied = navigator.clipboard && navigator.clipboard.writeText ? navigator.clipboard.writeText(text) : Promise.reject();
    copied.then(
      function () {
        say(done);
      },
      function () {
        input.select();
        say(T.copy_failed);
      },
    );
  }
  function copyBox(label, value, buttonText, done, id) {
    var input = el('input', { id: id, class: 'loy-copy-value', type: 'text', readonly: true, value: value });
    return el('div', { class: 'loy-copy' }, [
      el('label', { for: id, text: label }),
      el('div', { class: 'loy-copy-row' }, [
        input,
        el('button', {
          type: 'button',
          class: 'loy-button loy-button--secondary',
          text: buttonText,
          onclick: function () {
            copy(value, input, done);
          },
        }),
      ]),
    ]);
  }

  function summary(member) {
    var parts = [
      el('p', { class: 'loy-muted', text: fmt(T.hello, { name: member.first_name || '' }).trim() }),
      el('p', { class: 'loy-balance' }, [
        el('span', { class: 'loy-muted', text: T.balance + ' ' }),
        el('strong', { 'data-loyalty-balance': member.current_points, text: points(member.current_points) }),
      ]),
    ];
    if (member.loyalty_status === 'excluded') return el('div', { class: 'loy-summary' }, parts.concat([el('p', { text: T.excluded })]));
    if (member.pending_points > 0)
      parts.push(el('p', { class: 'loy-muted', text: fmt(T.pending, { points: points(member.pending_points) }) }));
    if (member.points_expiring) {
      parts.push(
        el('p', {
          class: 'loy-muted',
          text: fmt(T.expiring, { points: points(member.points_expiring.points), date: date(member.points_expiring.at) }),
        }),
      );
    }
    if (member.vip_tier) parts.push(el('p', { text: fmt(T.tier, { tier: member.vip_tier.name }) }));
    if (member.next_tier) {
      var next = member.next_tier;
      parts.push(
        el('p', { id: 'loy-next-tier', text: fmt(T.next_tier, { points: points(next.remaining), tier: next.name }) }),
        el('progress', {
          class: 'loy-progress',
          max: next.threshold,
          value: Math.max(0, next.threshold - next.remaining),
          'aria-labelledby': 'loy-next-tier',
        }),
      );
    } else if (member.vip_tier) {
      parts.push(el('p', { text: T.top_tier }));
    }
    return el('div', { class: 'loy-summary' }, parts);
  }

  function money(amount) {
    var whole = amount % 1 === 0;
    return Number(amount).toLocaleString(lang, {
      style: 'currency',
      currency: state.program.currency,
      minimumFractionDigits: whole ? 0 : undefined,
      maximumFractionDigits: whole ? 0 : undefined,
    });
  }
  // Each rule by its name with the points it gives this shopper now (tier and campaign included), as the
  // service computed them; a per-spend rule's for each whole spend unit. The running campaign is named first.
  function ruleList(program) {
    var campaign = program.campaign;
    var items = program.earning_rules.map(function (rule) {
      var figure = rule.spend_unit
        ? fmt(T.earn_per_spend, { points: points(rule.points), amount: money(rule.spend_unit) })
        : points(rule.points);
      return el('li', { class: 'loy-item' }, [
        rule.call_to_action_url ? el('a', { href: rule.call_to_action_url, text: rule.name }) : el('span', { text: rule.name }),
        el('span', { class: 'loy-points', 'data-loyalty-rule': rule.id, text: figure }),
      ]);
    });
    return [
      campaign
        ? el('p', {
            class: 'loy-campaign',
            text: fmt(T.campaign, {
              campaign: campaign.name,
              multiplier: campaign.multiplier.toLocaleString(lang),
              date: date(campaign.ends_at),
            }),
          })
        : null,
      el('ul', { class: 'loy-list' }, items),
    ];
  }

  // The figures the product block computes a price's points from, held for this shopper (docs/decisions.md,
  // "The product block's figure"); the block on this page recomputes at once.
  function hold(program) {
    try {
      localStorage.setItem(
        'loyalty-figures',
        JSON.stringify({
          customer: root.getAttribute('data-customer') || '',
          rates: program.purchase_rates,
          campaign: program.campaign,
          until: program.figures_until,
          at: Date.now(),
        }),
      );
    } catch {
      // Storage refused (private mode, full): the block keeps inviting the shopper to open the panel.
      return;
    }
    document.dispatchEvent(new CustomEvent('loyalty:figures'));
  }

  function tierName(id) {
    var tier = (state.program.vip_tiers || []).filter(function (t) {
      return t.id === id;
    })[0];
    return tier ? tier.name : id;
  }

  function rewardList(rewards) {
    var member = state.member;
    var redeemable = member ? member.redeemable_reward_ids : [];
    return el(
      'ul',
      { class: 'loy-list' },
      rewards.map(function (reward) {
        var cost = reward.flexible ? reward.flexible.min_points : reward.points_cost;
        var costText = reward.flexible
          ? fmt(T.flexible_cost, { min: points(reward.flexible.min_points), max: points(reward.flexible.max_points) })
          : points(reward.points_cost);
        var action = null;
        if (member && redeemable.indexOf(reward.id) !== -1) {
          action = el('button', {
            type: 'button',
            class: 'loy-button',
            'aria-label': fmt(T.redeem_label, { reward: reward.name, points: points(cost) }),
            text: T.redeem,
            onclick: function (event) {
              redeem(reward, cost, event.currentTarget);
            },
          });
        } else if (
          member &&
          member.loyalty_status !== 'excluded' &&
          reward.vip_tier_id &&
          (!member.vip_tier || member.vip_tier.id !== reward.vip_tier_id)
        ) {
          action = el('span', { class: 'loy-muted', text: fmt(T.tier_only, { tier: tierName(reward.vip_tier_id) }) });
        } else if (member && member.loyalty_status !== 'excluded' && member.current_points < cost) {
          action = el('span', { class: 'loy-muted', text: fmt(T.need_more, { points: points(cost - member.current_points) }) });
        }
        return el('li', { class: 'loy-item loy-reward' }, [
          el('div', {}, [
            el('strong', { text: reward.name }),
            reward.description ? el('p', { class: 'loy-muted', text: reward.description }) : null,
            el('p', { class: 'loy-points', text: costText }),
          ]),
          action,
        ]);
      }),
    );
  }

  function activityList(entries) {
    if (!entries.length) return el('p', { class: 'loy-muted', text: T.activity_empty });
    return el(
      'ul',
      { class: 'loy-list' },
      entries.map(function (entry) {
        var a = entry.attributes;
        return el('li', { class: 'loy-item' }, [
          el('span', {}, [el('span', { text: a.label }), el('span', { class: 'loy-muted loy-date', text: ' · ' + date(a.created_at) })]),
          el('span', { class: 'loy-points', text: (a.points > 0 ? '+' : a.points < 0 ? '−' : '') + points(Math.abs(a.points)) }),
        ]);
      }),
    );
  }

  function render() {
    var program = state.program;
    var member = state.member;
    var parts = [];
    if (!state.loggedIn) {
      parts.push(
        el('div', { class: 'loy-summary' }, [
          el('p', { text: T.guest_prompt }),
          el('p', { class: 'loy-actions' }, [
            el('a', { class: 'loy-button', href: root.getAttribute('data-login-url'), text: T.sign_in }),
            el('a', { class: 'loy-button loy-button--secondary', href: root.getAttribute('data-register-url'), text: T.create_account }),
          ]),
        ]),
      );
    } else if (!member) {
      parts.push(
        el('div', { class: 'loy-summary' }, [
          el('p', { text: T.join_prompt }),
          el('button', { type: 'button', class: 'loy-button', text: T.join, onclick: join }),
        ]),
      );
    } else {
      parts.push(summary(member));
    }
    if (state.code) {
      parts.push(copyBox(T.code_label, state.code.discount_code, T.copy_code, T.code_copied, 'loy-code'));
    }
    parts.push(section(T.rewards_heading, 'loy-rewards', [rewardList(program.rewards)]));
    parts.push(section(T.earn_heading, 'loy-earn', ruleList(program)));
    if (member) {
      parts.push(section(T.activity_heading, 'loy-activity', [activityList(state.activity)]));
      if (member.referral_url) {
        parts.push(
          section(T.referral_heading, 'loy-referral', [
            el('p', { class: 'loy-muted', text: T.referral_text }),
            copyBox(T.referral_label, member.referral_url, T.copy_link, T.link_copied, 'loy-referral-link'),
          ]),
        );
      }
    }
    body.replaceChildren.apply(body, parts);
    body.setAttribute('aria-busy', 'false');
  }

  function busy(button, on) {
    button.disabled = on;
    button.setAttribute('aria-disabled', on ? 'true' : 'false');
  }

  function join(event) {
    var button = event.currentTarget;
    busy(button, true);
    api('POST', '/member', {})
      .then(function (answer) {
        state.member = answer.data.attributes;
        return api('GET', '/member/activity?page%5Bsize%5D=5');
      })
      .then(function (activity) {
        state.activity = activity.data;
        render();
        say(fmt(T.joined, { points: points(state.member.current_points + state.member.pending_points) }));
        title.focus();
      })
      .catch(function (error) {
        busy(button, false);
        say(error.message);
      });
  }

  function redeem(reward, cost, button) {
    var redeemed = null;
    busy(button, true);
    api('POST', '/rewards/' + encodeURIComponent(reward.id) + '/redeem', reward.flexible ? { points: cost } : {})
      .then(function (answer) {
        state.code = redeemed = answer.data.attributes;
        return Promise.all([api('GET', '/member'), api('GET', '/member/activity?page%5Bsize%5D=5')]);
      })
      .then(function (answers) {
        state.member = answers[0].data ? answers[0].data.attributes : state.member;
        state.activity = answers[1].data;
        render();
        say(fmt(T.redeemed, { reward: state.code.reward_name, code: state.code.discount_code }));
        body.querySelector('.loy-copy button').focus();
      })
      .catch(function (error) {
        // The code is the shopper's even when the refresh after it failed: show it.
        if (redeemed) {
          render();
          say(fmt(T.redeemed, { reward: redeemed.reward_name, code: redeemed.discount_code }));
          return;
        }
        busy(button, false);
        say(error.message);
      });
  }

  function focusable() {
    return Array.prototype.filter.call(panel.querySelectorAll('a[href], button, input, [tabindex="0"]'), function (node) {
      return !node.disabled && node.offsetParent !== null;
    });
  }

  function open() {
    if (panel.open) return;
    panel.showModal();
    launcher.setAttribute('aria-expanded', 'true');
    title.focus();
    if (!loading) load();
  }
  function close() {
    if (panel.open) panel.close();
  }

  launcher.addEventListener('click', open);
  // The click that asked for this script opens the panel once its stylesheet is here too.
  if (root.getAttribute('data-open')) {
    root.removeAttribute('data-open');
    var sheet = document.getElementById('loyalty-stylesheet');
    if (!sheet || sheet.sheet) open();
    else {
      sheet.addEventListener('load', open);
      sheet.addEventListener('error', open);
    }
  }
  panel.querySelector('.loy-close').addEventListener('click', close);
  // Escape closes the dialog natively; focus returns to the launcher however it closes.
  panel.addEventListener('close', function () {
    launcher.setAttribute('aria-expanded', 'false');
    launcher.focus();
  });
  // A click on the backdrop (outside the panel's box) closes it.
  panel.addEventListener('click', function (event) {
    if (event.target === panel) {
      var box = panel.getBoundingClientRect();
      var inside = event.clientX >= box.left && event.clientX <= box.right && event.clientY >= box.top && event.clientY <= box.bottom;
      if (!inside) close();
    }
  });
  // Tab and Shift+Tab stay inside the open panel.
  panel.addEventListener('keydown', function (event) {
    if (event.key !== 'Tab') return;
    var nodes = focusable();
    if (!nodes.length) return;
    var first = nodes[0];
    var last = nodes[nodes.length - 1];
    if (event.shiftKey && (document.activeElement === first || document.activeElement === title)) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  });
})();
