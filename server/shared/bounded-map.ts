/** A Map that holds at most `limit` entries: setting a new key when full drops the oldest one. */
export class BoundedMap<K, V> extends Map<K, V> {
  constructor(private readonly limit: number) {
    super();
  }

  override set(key: K, value: V): this {
    if (!this.has(key) && this.size >= this.limit) this.delete(this.keys().next().value!);
    return super.set(key, value);
  }
}
