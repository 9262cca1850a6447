// Run after every test file (jest's setupFilesAfterEnv): the tables the file was given names for go with it.
import { dropIssuedTables } from './test-table';

afterAll(() => dropIssuedTables());
