/** The pages of tickets: only the app's router imports them (features meet through '@/features/tickets', never through pages). */
export { TicketDetailPage } from './TicketDetailPage';
export { TicketsPage } from './TicketsPage';
