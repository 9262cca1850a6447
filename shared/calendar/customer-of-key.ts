// The member a due item belongs to, from the item's partition key (`SHOP#<shop>#C#<customer>`).
import type { ItemKey } from '../data/keys';

export function customerOfKey(key: ItemKey): string {
  return key.pk.slice(key.pk.indexOf('#C#') + 3);
}
