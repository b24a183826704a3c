export { paths } from '../lib/paths';
