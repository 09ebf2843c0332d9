import { auditEveryPage } from './axe'

// Every page template in es and fr.
auditEveryPage(['es', 'fr'])
