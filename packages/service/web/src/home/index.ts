export { HomePage, renderHomePage } from './home-page.tsx';
export type { HomeView } from './view.ts';
