// Starts Amazon's DynamoDB Local as its own main class does, but listening on 127.0.0.1 only: the jar
// has no host option and its Jetty server binds every interface, while DynamoDB Local accepts any
// credentials. Arguments: DynamoDB Local's own (-port, -inMemory, -dbPath, -sharedDb, ...).
// Compiled once per source and release by infra/local/dynamodb-local.ts.
import java.lang.reflect.Field;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import software.amazon.dynamodb.services.local.main.ServerRunner;
import software.amazon.dynamodb.services.local.server.DynamoDBProxyServer;

public class LoopbackDynamoDbLocal {
  public static void main(String[] args) throws Exception {
    DynamoDBProxyServer proxy = ServerRunner.createServerFromCommandLineArgs(args);
    if (proxy == null) return; // -help or -version: printed, nothing to serve
    Field field = DynamoDBProxyServer.class.getDeclaredField("server");
    field.setAccessible(true);
    Server server = (Server) field.get(proxy);
    Connector[] connectors = server.getConnectors();
    if (connectors.length == 0) throw new IllegalStateException("DynamoDB Local has no connector to bind to 127.0.0.1");
    for (Connector connector : connectors) ((ServerConnector) connector).setHost("127.0.0.1");
    proxy.start();
  }
}
