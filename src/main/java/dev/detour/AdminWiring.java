package dev.detour;

import dev.detour.adapter.crypto.Secrets;
import dev.detour.adapter.db.Database;
import dev.detour.adapter.db.MyBatisRequestEvents;
import dev.detour.adapter.db.MyBatisTransactions;
import dev.detour.admin.AccountAdmin;
import dev.detour.admin.AccountRepository;
import dev.detour.admin.AuditLog;
import dev.detour.admin.BlockAdmin;
import dev.detour.admin.GroupAdmin;
import dev.detour.admin.KeyAdmin;
import dev.detour.admin.ModelAdmin;
import dev.detour.admin.PriceAdmin;
import dev.detour.admin.RequestLog;
import dev.detour.admin.port.SecretSealer;
import java.time.Clock;

/** The admin use cases the console, the admin API and demo mode share (one instance each). */
record AdminWiring(MyBatisTransactions transactions, AuditLog audit, RequestLog requestLog, GroupAdmin groups, AccountAdmin accounts, KeyAdmin keys,
        ModelAdmin models, PriceAdmin prices, BlockAdmin blocks, AccountRepository repository, SecretSealer sealer) {

    static AdminWiring create(Database database, MyBatisTransactions transactions, AccountRepository accounts,
            Secrets secrets, AuditLog audit, Clock clock) {
        return new AdminWiring(transactions, audit, new RequestLog(new MyBatisRequestEvents(database)), new GroupAdmin(transactions, audit, clock),
                new AccountAdmin(transactions, accounts, secrets.box(), audit, clock), new KeyAdmin(transactions, audit, clock),
                new ModelAdmin(transactions, audit, clock), new PriceAdmin(transactions, audit, clock),
                new BlockAdmin(transactions, audit, clock), accounts, secrets.box());
    }
}
