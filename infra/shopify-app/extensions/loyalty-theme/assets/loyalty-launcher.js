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
  var state = {
    program: null,
    member: null,
    loggedIn: false,
    activity: [],
    codes: [],
    codePages: 1,
    codePage: 1,
    confirm: null,
    fresh: null,
  };
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
  // One small set of icons, drawn inline (24-unit paths, stroked in the text's colour).
  var ICONS = {
    star: 'M12 3l2.7 5.6 6.1.9-4.4 4.3 1 6.1L12 17l-5.4 2.9 1-6.1-4.4-4.3 6.1-.9z',
    gift: 'M4 11h16v9H4zM3 7h18v4H3zM12 7v13M12 7c-2-4-6-3-5 0M12 7c2-4 6-3 5 0',
    ticket: 'M3 7h18v3a2 2 0 000 4v3H3v-3a2 2 0 000-4zM14 7v10',
    crown: 'M3 18h18M4 16l-1-9 5 4 4-6 4 6 5-4-1 9z',
    clock: 'M12 3a9 9 0 100 18 9 9 0 000-18zM12 7v5l3 2',
    spark: 'M12 3v4M12 17v4M3 12h4M17 12h4M6 6l2.5 2.5M15.5 15.5L18 18M6 18l2.5-2.5M15.5 8.5L18 6',
    friend: 'M9 11a4 4 0 100-8 4 4 0 000 8zM2 21c0-4 3-6 7-6s7 2 7 6M17 8v6M14 11h6',
  };
  // Parsed by the HTML parser from this fixed markup (the path is one of ICONS, never the service's text).
  function icon(name) {
    var holder = document.createElement('template');
    holder.innerHTML =
      '<svg class="loy-icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="' + ICONS[name] + '"/></svg>';
    return holder.content.firstChild;
  }
  function section(heading, id, children, iconName) {
    return el(
      'section',
      { class: 'loy-section', 'aria-labelledby': id },
      [el('h3', { id: id }, [iconName ? icon(iconName) : null, document.createTextNode(heading)])].concat(children),
    );
  }
  function money(amount) {
    var currency = (state.program && state.program.currency) || 'USD';
    try {
      return Number(amount).toLocaleString(lang, { style: 'currency', currency: currency, minimumFractionDigits: amount % 1 ? 2 : 0 });
    } catch {
      return amount + ' ' + currency;
    }
  }
  // What a discount takes off: "$5 off", "10% off".
  // What a reward gives, by its kind (PROGRAM-CONTRACT.md, "Reward kinds peers give").
  function value(type, amount) {
    if (type === 'free_shipping') return amount ? fmt(T.value_free_shipping_cap, { amount: money(amount) }) : T.value_free_shipping;
    if (amount === null || amount === undefined) return '';
    if (type === 'percentage') return fmt(T.value_percentage, { amount: amount });
    if (type === 'free_product') return fmt(T.value_free_product, { amount: money(amount) });
    return fmt(type === 'store_credit' ? T.value_store_credit : T.value_fixed, { amount: money(amount) });
  }
  // A flexible reward's discount for `spent` points: whole points_per_unit steps, each one unit of the currency
  // (or one percent) times the reward's amount.
  function flexibleValue(reward, spent) {
    var unit = reward.flexible.points_per_unit || 1;
    return Math.floor((spent / unit) * 100) / 100;
  }
  function signupPoints() {
    var rule = (state.program.earning_rules || []).filter(function (r) {
      return r.action === 'signup';
    })[0];
    return rule && rule.points > 0 ? rule.points : 0;
  }
  function joinText() {
    var n = signupPoints();
    return n ? fmt(T.join_points, { points: points(n) }) : T.join;
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

  // The member's own lists: the codes still to use and the latest activity, from the service (never the browser's storage).
  function loadMine() {
    if (!state.member) {
      state.activity = [];
      state.codes = [];
      return Promise.resolve();
    }
    return Promise.all([api('GET', '/member/activity?page%5Bsize%5D=5'), rewardsPage(1)]).then(function (answers) {
      state.activity = answers[0].data;
      state.codes = answers[1];
    });
  }
  // A page of 20 codes; the last page's number is kept for "Show more codes".
  function rewardsPage(n) {
    return api('GET', '/member/rewards?page%5Bnumber%5D=' + n + '&page%5Bsize%5D=20').then(function (answer) {
      state.codePage = n;
      state.codePages = (answer.meta && answer.meta.total_pages) || 1;
      return answer.data;
    });
  }
  function moreCodes(event) {
    var button = event.currentTarget;
    var shown = state.codes.length;
    button.disabled = true;
    rewardsPage(state.codePage + 1).then(
      function (codes) {
        state.codes = state.codes.concat(codes);
        render();
        // Focus on the first code added, where reading goes on.
        var next = body.querySelectorAll('.loy-owned button')[shown];
        if (next) next.focus();
      },
      function (error) {
        button.disabled = false;
        say(error.message);
      },
    );
  }

  function load() {
    body.setAttribute('aria-busy', 'true');
    loading = Promise.all([api('GET', '/program'), api('GET', '/member')])
      .then(function (answers) {
        state.program = answers[0].data.attributes;
        state.loggedIn = answers[1].meta.logged_in;
        state.member = answers[1].data ? answers[1].data.attributes : null;
        hold(state.program);
        return loadMine();
      })
      .then(function () {
        render();
      })
      .catch(function (error) {
        loading = null;
        body.replaceChildren(el('p', { class: 'loy-error', text: error.message }));
        body.setAttribute('aria-busy', 'false');
      });
    return loading;
  }

  // Copies `text`; the outcome is said in `status`, a live region beside the button, so it shows where the
  // shopper is looking and is announced.
  function copy(text, select, done, status) {
    var copied = navigator.clipboard && navigator.clipboard.writeText ? navigator.clipboard.writeText(text) : Promise.reject();
    function tell(message) {
      status.textContent = '';
      setTimeout(function () {
        status.textContent = message;
      }, 50);
    }
    copied.then(
      function () {
        tell(done);
      },
      function () {
        select();
        tell(T.copy_failed);
      },
    );
  }
  function copyStatus() {
    return el('p', { class: 'loy-copied', role: 'status', 'aria-live': 'polite' });
  }
  function copyBox(label, value, buttonText, done, id) {
    var input = el('input', { id: id, class: 'loy-copy-value', type: 'text', readonly: true, value: value });
    var status = copyStatus();
    return el('div', { class: 'loy-copy' }, [
      el('label', { for: id, text: label }),
      el('div', { class: 'loy-copy-row' }, [
        input,
        el('button', {
          type: 'button',
          class: 'loy-button loy-button--secondary',
          text: buttonText,
          onclick: function () {
            copy(
              value,
              function () {
                input.select();
              },
              done,
              status,
            );
          },
        }),
      ]),
      status,
    ]);
  }

  // The member's codes still to use: the reward, what it takes off, until when, the whole code and a copy button.
  function codeList(codes) {
    if (!codes.length) return el('p', { class: 'loy-muted', text: T.your_rewards_empty });
    var list = el(
      'ul',
      { class: 'loy-list' },
      codes.map(function (entry) {
        var a = entry.attributes;
        var codeText = el('code', { class: 'loy-code', id: 'loy-code-' + entry.id, text: a.discount_code });
        var status = copyStatus();
        // What the code takes off, unless the reward's name already says it ("$5 off").
        var worth = value(a.discount_type, a.discount_value);
        var details = [worth.replace(/[.,]00\b/, '') === a.reward_name.replace(/[.,]00\b/, '') ? '' : worth];
        if (a.minimum_spend) details.push(fmt(T.value_min_spend, { amount: money(a.minimum_spend) }));
        return el('li', { class: 'loy-item loy-owned' + (state.fresh === entry.id ? ' loy-owned--new' : ''), 'data-code-id': entry.id }, [
          el('div', { class: 'loy-owned-main' }, [
            el('strong', { text: a.reward_name }),
            details.filter(Boolean).length ? el('p', { class: 'loy-muted loy-value', text: details.filter(Boolean).join(' · ') }) : null,
          ]),
          el('p', { class: 'loy-muted loy-expiry loy-status' }, [
            icon('clock'),
            document.createTextNode(a.expires_at ? fmt(T.expires, { date: date(a.expires_at) }) : T.no_expiry),
          ]),
          el('div', { class: 'loy-code-row' }, [
            codeText,
            el('button', {
              type: 'button',
              class: 'loy-button loy-button--secondary',
              'aria-label': fmt(T.copy_code_label, { code: a.discount_code }),
              text: T.copy_code,
              onclick: function () {
                copy(
                  a.discount_code,
                  function () {
                    window.getSelection().selectAllChildren(codeText);
                  },
                  T.code_copied,
                  status,
                );
              },
            }),
          ]),
          status,
        ]);
      }),
    );
    if (state.codePage >= state.codePages) return list;
    return el('div', {}, [
      list,
      el('button', {
        type: 'button',
        class: 'loy-button loy-button--secondary',
        'data-more-codes': true,
        text: T.more_codes,
        onclick: moreCodes,
      }),
    ]);
  }

  function tierList(tiers) {
    var current = state.member && state.member.vip_tier ? state.member.vip_tier.id : null;
    return el(
      'ul',
      { class: 'loy-list' },
      tiers.map(function (tier) {
        return el('li', { class: 'loy-item' + (tier.id === current ? ' loy-item--current' : '') }, [
          el('span', { class: 'loy-tier' }, [
            el('span', { class: 'loy-swatch', style: 'background:' + (tier.badge_color || 'currentColor') }),
            el('strong', { text: tier.name }),
          ]),
          el('span', {
            class: 'loy-points loy-status',
            text: tier.id === current ? T.tier_current : fmt(T.tier_multiplier, { multiplier: tier.points_multiplier }),
          }),
        ]);
      }),
    );
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
        if (state.confirm && state.confirm.reward.id === reward.id) {
          return el('li', { class: 'loy-item loy-reward loy-reward--confirm' }, [confirmBox(reward)]);
        }
        if (member && redeemable.indexOf(reward.id) !== -1) {
          action = el('button', {
            type: 'button',
            class: 'loy-button',
            'data-reward-id': reward.id,
            'aria-label': fmt(T.redeem_label, { reward: reward.name, points: points(cost) }),
            text: T.redeem,
            onclick: function () {
              ask(reward, cost);
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
          action ? el('div', { class: 'loy-status' }, [action]) : null,
        ]);
      }),
    );
  }

  // The most a flexible reward can take now: its maximum, or the balance in whole steps above the minimum.
  function flexibleMax(reward) {
    var f = reward.flexible;
    var step = f.points_per_unit || 1;
    var room = Math.min(f.max_points, state.member.current_points);
    return Math.max(f.min_points, f.min_points + Math.floor((room - f.min_points) / step) * step);
  }
  function offer(reward, spent) {
    return reward.flexible ? value(reward.discount_type, flexibleValue(reward, spent)) : reward.name;
  }

  // Every spend is asked first: a flexible reward's amount chosen in its steps, then Confirm or Cancel.
  function confirmBox(reward) {
    var c = state.confirm;
    var question = el('p', {
      id: 'loy-confirm-q',
      class: 'loy-question',
      text: fmt(T.confirm_question, { points: points(c.points), reward: offer(reward, c.points) }),
    });
    var parts = [el('strong', { text: reward.name })];
    if (reward.flexible) {
      var f = reward.flexible;
      var output = el('output', {
        for: 'loy-amount',
        class: 'loy-buys',
        text: fmt(T.buys, { points: points(c.points), value: offer(reward, c.points) }),
      });
      var slider = el('input', {
        id: 'loy-amount',
        class: 'loy-range',
        type: 'range',
        min: f.min_points,
        max: flexibleMax(reward),
        step: f.points_per_unit || 1,
        value: c.points,
        'aria-valuetext': fmt(T.buys, { points: points(c.points), value: offer(reward, c.points) }),
      });
      slider.addEventListener('input', function () {
        c.points = Number(slider.value);
        var text = fmt(T.buys, { points: points(c.points), value: offer(reward, c.points) });
        output.textContent = text;
        slider.setAttribute('aria-valuetext', text);
        question.textContent = fmt(T.confirm_question, { points: points(c.points), reward: offer(reward, c.points) });
      });
      parts.push(el('label', { for: 'loy-amount', class: 'loy-muted', text: T.choose_points }), slider, output);
    }
    parts.push(
      question,
      el('p', { class: 'loy-actions' }, [
        el('button', {
          type: 'button',
          class: 'loy-button',
          'data-confirm': true,
          'aria-describedby': 'loy-confirm-q',
          text: T.confirm,
          onclick: function (event) {
            redeem(reward, c.points, event.currentTarget);
          },
        }),
        el('button', { type: 'button', class: 'loy-button loy-button--secondary', 'data-cancel': true, text: T.cancel, onclick: cancel }),
      ]),
    );
    return el('div', { class: 'loy-confirm', role: 'group', 'aria-labelledby': 'loy-confirm-q' }, parts);
  }

  function ask(reward, cost) {
    state.confirm = { reward: reward, points: cost };
    render();
    var first = body.querySelector('.loy-confirm .loy-range') || body.querySelector('.loy-confirm [data-confirm]');
    first.focus();
  }
  function cancel() {
    var reward = state.confirm.reward;
    state.confirm = null;
    render();
    say(T.cancelled);
    var back = body.querySelector('[data-reward-id="' + reward.id + '"]');
    if (back) back.focus();
    else title.focus();
  }

  function activityList(entries) {
    if (!entries.length) return el('p', { class: 'loy-muted', text: T.activity_empty });
    return el(
      'ul',
      { class: 'loy-list' },
      entries.map(function (entry) {
        var a = entry.attributes;
        return el('li', { class: 'loy-item' }, [
          el('span', {}, [
            el('span', { text: a.label }),
            el('span', { class: 'loy-muted loy-date', text: ' · ' + date(a.created_at) }),
            // A redemption's code stays here once it is used or gone from Your rewards.
            a.discount_code ? el('code', { class: 'loy-code loy-code--line', text: a.discount_code }) : null,
          ]),
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
            el('a', {
              class: 'loy-button loy-button--secondary',
              'data-join': true,
              href: root.getAttribute('data-register-url'),
              text: joinText(),
            }),
          ]),
        ]),
      );
    } else if (!member) {
      parts.push(
        el('div', { class: 'loy-summary' }, [
          el('p', { text: T.join_prompt }),
          el('button', { type: 'button', class: 'loy-button', 'data-join': true, text: joinText(), onclick: join }),
        ]),
      );
    } else {
      parts.push(summary(member));
    }
    parts.push(section(T.earn_heading, 'loy-earn', ruleList(program), 'spark'));
    parts.push(section(T.rewards_heading, 'loy-rewards', [rewardList(program.rewards)], 'gift'));
    if (member) parts.push(section(T.your_rewards_heading, 'loy-your-rewards', [codeList(state.codes)], 'ticket'));
    if ((program.vip_tiers || []).length) parts.push(section(T.tiers_heading, 'loy-tiers', [tierList(program.vip_tiers)], 'crown'));
    if (member) parts.push(section(T.activity_heading, 'loy-activity', [activityList(state.activity)], 'clock'));
    if (member && member.referral_url) {
      parts.push(
        section(
          T.referral_heading,
          'loy-referral',
          [
            el('p', { class: 'loy-muted', text: T.referral_text }),
            copyBox(T.referral_label, member.referral_url, T.copy_link, T.link_copied, 'loy-referral-link'),
          ],
          'friend',
        ),
      );
    } else if (!member) {
      parts.push(section(T.referral_heading, 'loy-referral', [el('p', { class: 'loy-muted', text: T.referral_guest })], 'friend'));
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
        return loadMine();
      })
      .then(function () {
        render();
        say(fmt(T.joined, { points: points(state.member.current_points + state.member.pending_points) }));
        title.focus();
      })
      .catch(function (error) {
        busy(button, false);
        say(error.message);
      });
  }

  // The confirmed spend; then the balance, the codes and the activity read again, and focus on the new code's copy button.
  function redeem(reward, cost, button) {
    var redeemed = null;
    busy(button, true);
    api('POST', '/rewards/' + encodeURIComponent(reward.id) + '/redeem', reward.flexible ? { points: cost } : {})
      .then(function (answer) {
        redeemed = answer.data;
        state.confirm = null;
        state.fresh = redeemed.id;
        return api('GET', '/member').then(function (member) {
          state.member = member.data ? member.data.attributes : state.member;
          return loadMine();
        });
      })
      .then(function () {
        render();
        // Store credit has no code: it is on the customer's account already.
        var a = redeemed.attributes;
        say(
          a.discount_code ? fmt(T.redeemed, { reward: a.reward_name, code: a.discount_code }) : fmt(T.credited, { reward: a.reward_name }),
        );
        var copyButton = body.querySelector('[data-code-id="' + redeemed.id + '"] button');
        if (copyButton) copyButton.focus();
        else title.focus();
      })
      .catch(function (error) {
        // The code is the shopper's even when the refresh after it failed: show it where their codes are.
        if (redeemed && redeemed.attributes.discount_code) {
          if (
            !state.codes.some(function (c) {
              return c.id === redeemed.id;
            })
          ) {
            state.codes.unshift({
              id: redeemed.id,
              attributes: Object.assign({ discount_type: null, discount_value: null }, redeemed.attributes),
            });
          }
          render();
          say(fmt(T.redeemed, { reward: redeemed.attributes.reward_name, code: redeemed.attributes.discount_code }));
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
  // Escape inside a confirmation cancels it and keeps the panel open.
  panel.addEventListener('cancel', function (event) {
    if (state.confirm && panel.contains(document.activeElement) && document.activeElement.closest('.loy-confirm')) {
      event.preventDefault();
      cancel();
    }
  });
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
