export { recordExchange } from './record-exchange.ts';
export { HistoryPage } from './history-page.tsx';
