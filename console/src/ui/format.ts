/** Whole numbers with the viewer's separators. */
export const count = (n: number) => n.toLocaleString();
