// Work in flight, shown as aria-busy on <main> (assistive technology and the browser tests both read it).

export const busy = $state({ count: 0 });

export async function track<T>(work: Promise<T>): Promise<T> {
  busy.count++;
  try {
    return await work;
  } finally {
    busy.count--;
  }
}
