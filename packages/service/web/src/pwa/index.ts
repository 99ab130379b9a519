export { ICON_SVG } from './icons.ts';
export {
  BACKGROUND_COLOR,
  iconPng,
  NOTIFICATIONS_PATH,
  PWA_PATHS,
  serviceWorkerScript,
  THEME_COLOR,
  WEB_MANIFEST,
} from './web-app.ts';
