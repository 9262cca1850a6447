// The birthday timer item (`TIMER#birthday` in the customer's partition): one per member with a date of
// birth, due in the due-work index on the next day the birthday job looks at the member.
import type { CustomerRecord } from '../../domain/customer';
import { nextBirthdayCheck } from '../../domain/points-ledger';
import { nowIso } from '../../runtime/clock';
import type { Write } from '../write';
import { customerPk } from './customer-profile';
import { defineItem } from './define-item';
import { dueAttributes, DUE_ATTRIBUTES } from './due';
import { type Item, type ItemKey } from './item-type';

/** Prefix of a member's timer items (the birthday's is the one there is). */
export const TIMER_PREFIX = 'TIMER#';

export const birthdayTimerKey = (shopId: string, customerId: string): ItemKey => ({
  pk: customerPk(shopId, customerId),
  sk: `${TIMER_PREFIX}birthday`,
});

export const birthdayTimer = defineItem({
  name: 'birthday timer',
  key: birthdayTimerKey,
  placeholder: ['<shop>', '<platform id>'],
  indexed: DUE_ATTRIBUTES,
  derived: DUE_ATTRIBUTES,
});

export const birthdayTimerType = birthdayTimer.type;

/** The birthday timer item of a member with a date of birth, due on `day` (`YYYY-MM-DD`). */
export function birthdayTimerItem(shopId: string, customerId: string, day: string): Item {
  return birthdayTimer.item(birthdayTimerKey(shopId, customerId), {
    customer_id: customerId,
    ...dueAttributes(shopId, 'birthday', day, customerId),
  });
}

/**
 * What the timer becomes when the profile becomes `next` (its date of birth was `previousDate`): nothing
 * when the date stays, deleted when it is cleared, put at the next day to look (from `today`) otherwise.
 */
export function birthdayTimerChange(
  next: CustomerRecord,
  previousDate: string | null,
  today: string,
): { put: Item } | { delete: ItemKey } | null {
  if (next.date_of_birth === previousDate) return null;
  const { shop_id: shopId, platform_customer_id: customerId } = next;
  if (next.date_of_birth === null) return { delete: birthdayTimerKey(shopId, customerId) };
  const day = nextBirthdayCheck(next.date_of_birth, next.birthday_awarded_year ?? null, today);
  return { put: birthdayTimerItem(shopId, customerId, day) };
}

// ---- named writes of the birthday job ----------------------------------------------------------------

/** The timer's next day, if nobody rewrote it since it was read (a date of birth changed meanwhile wins). */
export function moveBirthdayTimer(shopId: string, customerId: string, readDueAt: unknown, day: string): Write {
  const { pk, sk, customer_id: _customer, ...due } = birthdayTimerItem(shopId, customerId, day);
  return birthdayTimer.update(
    'move the birthday timer',
    { pk: String(pk), sk: String(sk) },
    {
      set: due,
      condition: '#due_at = :read',
      values: { ':read': readDueAt },
    },
  );
}

/** The timer of a member gone, or whose date of birth was cleared. */
export function removeBirthdayTimer(shopId: string, customerId: string): Write {
  return birthdayTimer.delete('remove the birthday timer', birthdayTimerKey(shopId, customerId));
}

/**
 * The birthday timer follows the date of birth: written when a date is set or changed, deleted when it is
 * cleared (the profile becomes `next`, its date was `previousDate`), so the birthday job finds the member on
 * the right day without reading anyone else.
 */
export function followBirthday(next: CustomerRecord, previousDate: string | null): Write[] {
  const change = birthdayTimerChange(next, previousDate, nowIso().slice(0, 10));
  if (!change) return [];
  if ('delete' in change) return [birthdayTimer.delete('clear the birthday timer', change.delete)];
  const { pk, sk, ...fields } = change.put;
  return [birthdayTimer.put('set the birthday timer', { pk: String(pk), sk: String(sk) }, fields)];
}
