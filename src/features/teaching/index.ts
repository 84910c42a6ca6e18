export { TeachingPage, type TeachingPageProps } from './teaching-page.tsx';
