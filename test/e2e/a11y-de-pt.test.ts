import { auditEveryPage } from './axe'

// Every page template in de and pt.
auditEveryPage(['de', 'pt'])
