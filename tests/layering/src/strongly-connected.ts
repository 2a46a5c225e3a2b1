/**
 * Cycles in a directed graph: its strongly connected components (Tarjan), and one shortest cycle
 * through a component to show a reader. A component of two or more nodes, or a node with an edge to
 * itself, is a cycle; every other node stands in the one-way order the guard wants.
 */

/** A directed graph: each node → the nodes it has an edge to. */
export type Graph<N> = ReadonlyMap<N, ReadonlySet<N>>;

/** The components that hold a cycle, each with its nodes in the graph's iteration order. */
export function cyclicComponents<N>(graph: Graph<N>): N[][] {
  const index = new Map<N, number>();
  const low = new Map<N, number>();
  const onStack = new Set<N>();
  const stack: N[] = [];
  const components: N[][] = [];
  let counter = 0;

  const connect = (node: N) => {
    index.set(node, counter);
    low.set(node, counter);
    counter++;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        connect(next);
        low.set(node, Math.min(low.get(node) as number, low.get(next) as number));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node) as number, index.get(next) as number));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component: N[] = [];
    let member: N;
    do {
      member = stack.pop() as N;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || graph.get(node)?.has(node)) components.push(component);
  };

  for (const node of graph.keys()) if (!index.has(node)) connect(node);
  const order = [...graph.keys()];
  return components
    .map((component) => component.sort((a, b) => order.indexOf(a) - order.indexOf(b)))
    .sort((a, b) => order.indexOf(a[0] as N) - order.indexOf(b[0] as N));
}

/** A shortest path from `start` back to `start` inside `within` (breadth first): `[start, …, start]`. */
export function shortestCycle<N>(graph: Graph<N>, start: N, within: ReadonlySet<N>): N[] {
  const previous = new Map<N, N>();
  const queue: N[] = [start];
  for (let head = 0; head < queue.length; head++) {
    const node = queue[head] as N;
    for (const next of graph.get(node) ?? []) {
      if (!within.has(next)) continue;
      if (next === start) {
        // Walk back from the last step to `start`, then read the walk forwards.
        const backwards = [start];
        for (let at: N | undefined = node; at !== undefined && at !== start; at = previous.get(at)) {
          backwards.push(at);
        }
        return [start, ...backwards.slice(1).reverse(), start];
      }
      if (!previous.has(next) && next !== start) {
        previous.set(next, node);
        queue.push(next);
      }
    }
  }
  return [start];
}
