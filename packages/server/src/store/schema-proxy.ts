// Tables of the authentication proxy (issue 3); re-exported by schema.ts. Must match migrations/*.sql.
export {};
