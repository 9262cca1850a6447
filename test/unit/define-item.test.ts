// An item type declared once (items/define-item.ts) and the one update builder (items/update.ts): the stored
// item a put writes (key, fields, what `derive` gives, an absent derived attribute left out), an update that
// says what the item becomes (derived attributes set, or removed), the delete and the condition check, and
// each clause of the builder with its names and values.
import { defineItem } from '../../shared/data/items/define-item';
import { updateExpression, updateRequest } from '../../shared/data/items/update';

beforeAll(() => {
  process.env.TABLE_NAME ??= 'define-item-test';
});

interface Box {
  id: string;
  status: 'open' | 'shut';
  at: string;
}

const box = defineItem({
  name: 'box',
  key: (shop: string, id: string) => ({ pk: `SHOP#${shop}`, sk: `BOX#${id}` }),
  placeholder: ['<shop>', '<id>'],
  indexed: ['due_pk'],
  derived: ['due_pk', 'due_at'],
  derive: (fields: Box) => ({
    due_pk: fields.status === 'open' ? 'DUE#box' : undefined,
    due_at: fields.status === 'open' ? `${fields.at}#${fields.id}` : undefined,
  }),
});

describe('defineItem', () => {
  it('declares the type once: its placeholder key and attributes for the table of items', () => {
    expect(box.type).toEqual({
      name: 'box',
      key: { pk: 'SHOP#<shop>', sk: 'BOX#<id>' },
      indexed: ['due_pk'],
      derived: ['due_pk', 'due_at'],
    });
    expect(box.key('s', '1')).toEqual({ pk: 'SHOP#s', sk: 'BOX#1' });
  });

  it('puts the item with what derive gives, leaving out an absent derived attribute, refused if it exists when new', () => {
    const open = box.put('open the box', box.key('s', '1'), { id: '1', status: 'open', at: 'T1' }, { ifNew: true });
    const shut = box.put('shut the box', box.key('s', '1'), { id: '1', status: 'shut', at: 'T1' });

    expect(open).toEqual({
      name: 'open the box',
      request: {
        Put: {
          TableName: 'define-item-test',
          Item: { pk: 'SHOP#s', sk: 'BOX#1', id: '1', status: 'open', at: 'T1', due_pk: 'DUE#box', due_at: 'T1#1' },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    });
    expect(shut.request.Put).toEqual({
      TableName: 'define-item-test',
      Item: { pk: 'SHOP#s', sk: 'BOX#1', id: '1', status: 'shut', at: 'T1' },
    });
  });

  it('derives on an update that says what the item becomes: set when given, removed when absent', () => {
    const reopened = box.update('reopen', box.key('s', '1'), {
      set: { status: 'open' },
      derivedFrom: { id: '1', status: 'open', at: 'T2' },
      condition: '#status = :shut',
      values: { ':shut': 'shut' },
      returnOld: true,
    });
    const shut = box.update('shut', box.key('s', '1'), { set: { status: 'shut' }, derivedFrom: { id: '1', status: 'shut', at: 'T2' } });

    expect(reopened.request.Update).toEqual({
      TableName: 'define-item-test',
      Key: { pk: 'SHOP#s', sk: 'BOX#1' },
      UpdateExpression: 'SET #s0 = :s0, #s1 = :s1, #s2 = :s2',
      ConditionExpression: '#status = :shut',
      ExpressionAttributeNames: { '#s0': 'status', '#s1': 'due_pk', '#s2': 'due_at', '#status': 'status' },
      ExpressionAttributeValues: { ':s0': 'open', ':s1': 'DUE#box', ':s2': 'T2#1', ':shut': 'shut' },
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    });
    expect(shut.request.Update!.UpdateExpression).toBe('SET #s0 = :s0 REMOVE #r0, #r1');
    expect(shut.request.Update!.ExpressionAttributeNames).toEqual({ '#s0': 'status', '#r0': 'due_pk', '#r1': 'due_at' });
  });

  it('deletes under a condition, and checks a condition without writing', () => {
    const removed = box.delete('throw the box away', box.key('s', '1'), { condition: '#status = :shut', values: { ':shut': 'shut' } });
    const checked = box.check('check the box is open', box.key('s', '1'), {
      condition: 'attribute_exists(pk) AND #status = :open',
      values: { ':open': 'open' },
    });

    expect(removed.request.Delete).toEqual({
      TableName: 'define-item-test',
      Key: { pk: 'SHOP#s', sk: 'BOX#1' },
      ConditionExpression: '#status = :shut',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':shut': 'shut' },
    });
    expect(checked.request.ConditionCheck).toEqual({
      TableName: 'define-item-test',
      Key: { pk: 'SHOP#s', sk: 'BOX#1' },
      ConditionExpression: 'attribute_exists(pk) AND #status = :open',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':open': 'open' },
    });
    expect(box.delete('drop', box.key('s', '2')).request.Delete).toEqual({
      TableName: 'define-item-test',
      Key: { pk: 'SHOP#s', sk: 'BOX#2' },
    });
  });
});

describe('the update builder', () => {
  it('writes each clause once: sets (plain, if absent, appended), removals (a list element too), additions', () => {
    const built = updateExpression({
      set: { name: 'Ada', skipped: undefined },
      setIfAbsent: { ttl: 60 },
      append: { queue: [{ id: 'a' }] },
      remove: ['email', 'queue[2]'],
      add: { version: 1, count: -1 },
    });

    expect(built.expression).toBe(
      'SET #s0 = :s0, #i0 = if_not_exists(#i0, :i0), #l0 = list_append(if_not_exists(#l0, :empty), :l0) REMOVE #r0, #r1[2] ADD #a0 :a0, #a1 :a1',
    );
    expect(built.names).toEqual({
      '#s0': 'name',
      '#i0': 'ttl',
      '#l0': 'queue',
      '#r0': 'email',
      '#r1': 'queue',
      '#a0': 'version',
      '#a1': 'count',
    });
    expect(built.values).toEqual({ ':s0': 'Ada', ':i0': 60, ':empty': [], ':l0': [{ id: 'a' }], ':a0': 1, ':a1': -1 });
  });

  it('names a condition attribute as itself unless mapped, and refuses an update that changes nothing', () => {
    const request = updateRequest(
      { pk: 'p', sk: 's' },
      { add: { awards: 1 }, condition: '#count < :max AND #due_pk = :due', names: { '#count': 'awards' } },
    );

    expect(request.Update!.ExpressionAttributeNames).toEqual({ '#a0': 'awards', '#count': 'awards', '#due_pk': 'due_pk' });
    expect(() => updateExpression({ set: { gone: undefined } })).toThrow('An update changes at least one attribute');
    expect(() => updateRequest({ pk: 'p', sk: 's' }, { add: { awards: 1 }, condition: '#a0 < :max', names: { '#a0': 'other' } })).toThrow(
      "The condition's #a0 is one of the update's own names",
    );
    expect(() => updateRequest({ pk: 'p', sk: 's' }, { add: { awards: 1 }, condition: '#count < :a0', values: { ':a0': 3 } })).toThrow(
      "The condition's :a0 is one of the update's own values",
    );
  });
});
