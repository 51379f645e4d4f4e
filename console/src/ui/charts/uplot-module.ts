/** uPlot and its stylesheet, in one module that pages load on demand (a dynamic import: its own chunk). */
import 'uplot/dist/uPlot.min.css';

export { default } from 'uplot';
